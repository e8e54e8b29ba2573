"""Files a game names must stay inside its project; outputs must stay inside the build folder.

Game data is often downloaded from strangers: a `rules_summary: ../../../home/me/.ssh/id_rsa`
must be refused, not packed into a module and shared. Every path a data file names goes
through `resolve_inside`, which refuses absolute paths, `..` escapes and symlinks whose
target lies outside the root, with a message that says which rule was broken.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

from lxml import etree


class UnsafePath(ValueError):
    """A named file resolves outside the folder it must stay in; `help` names the fix."""

    def __init__(self, message: str, help: str = ""):
        super().__init__(message)
        self.help = help


def _is_absolute(relative: str) -> bool:
    """Absolute on any platform: `/x`, `\\\\server\\x`, `C:\\x`, `C:x` (data files travel between systems)."""
    win = PureWindowsPath(relative)
    return PurePosixPath(relative).is_absolute() or bool(win.drive) or bool(win.root)


def resolve_inside(root: Path, relative: str, what: str, base: Path | None = None) -> Path:
    """The real path of `relative` (taken from `base`, default `root`), which must lie inside `root`.

    Raises `UnsafePath` for an empty or absolute path, a path that climbs out with `..`, or one
    that leaves `root` through a symlink. The file need not exist; the caller reports a missing one.
    """
    if not isinstance(relative, str) or not relative.strip():
        raise UnsafePath(f"{what} path is empty", help="write a path relative to the file that names it")
    if "\x00" in relative:
        raise UnsafePath(f"{what} path {relative!r} contains a NUL character")
    if _is_absolute(relative):
        raise UnsafePath(
            f"{what} path {relative!r} is absolute",
            help="write it relative to the file that names it, inside the project folder",
        )
    real_root = Path(os.path.realpath(root))
    start = Path(os.path.realpath(base if base is not None else root))
    lexical = Path(os.path.normpath(start / relative.replace("\\", "/")))
    if not _within(lexical, real_root):
        raise UnsafePath(
            f"{what} path {relative!r} leads outside the project folder",
            help="copy the file into the project and name it from there",
        )
    real = Path(os.path.realpath(lexical))
    if not _within(real, real_root):
        raise UnsafePath(
            f"{what} path {relative!r} is a symbolic link to {str(real)!r}, outside the project folder",
            help="copy the file into the project instead of linking to it",
        )
    return real


def check_output(out_root: Path, target: Path) -> Path:
    """`target` itself, after making sure it is inside `out_root` (a build never writes elsewhere)."""
    real_root = Path(os.path.realpath(out_root))
    real = Path(os.path.realpath(target))
    if not _within(real, real_root):
        raise UnsafePath(f"output {str(target)!r} would be written outside the build folder {str(out_root)!r}")
    return target


def _within(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def writer_root(project: Path, target: Path) -> Path:
    """The folder a writer of `target` confines itself to (`confine`): the project when `target` lies in it,
    else the folder `target` was named in (an `--out` outside the project)."""
    where = Path(os.path.abspath(target))
    top = Path(os.path.abspath(project))
    return top if where.is_relative_to(top) else where.parent


def confine(root: Path, target: Path, what: str = "output", links: str = "inside", final: str = "replace") -> Path:
    """Where a writer may put `target`, a file under the folder `root` it writes into, or `UnsafePath`.

    The one check of every writer: `import-vmod`, `init`, `import-setup`, `new scenario`, `docs --write`,
    `calibrate --write` (through `atomic.write_chunks(..., inside=root)`), `export-setup`, `check --image`,
    `build calibration` (`refuse_output`), each cache entry as it is stored (`products.store`, with
    `links="none"`); a build also refuses, before it starts, a link at any folder it writes into, caches
    included (`refuse_build_tree`). Each folder from `root` down to the file, and the file, is looked at
    without following it. A link among those folders is followed only when `links` is
    "inside" and it leads inside `root`; with `links="none"` (a build folder, which hexwright makes itself)
    any link is refused. The file itself, when it is a link, is replaced (`final="replace"`: an output, the
    link goes and its target is left alone) or written through (`final="follow"`: a data file, which stays a
    link) when it leads inside `root`. `root` itself is the caller's to check (`refuse_out_dir`, `--out`).

    Returns the path to write: `target`, or the file a followed final link leads to. The check is repeated
    just before an atomic writer renames its file into place (`atomic.write_chunks(..., inside=root)`)."""
    real_root = Path(os.path.realpath(root))
    try:
        parts = Path(os.path.abspath(target)).relative_to(os.path.abspath(root)).parts
    except ValueError:
        raise UnsafePath(f"{what} {str(target)!r} is not inside {str(root)!r}") from None
    here = Path(root)
    for i, part in enumerate(parts):
        here = here / part
        last = i == len(parts) - 1
        if not os.path.islink(here):
            continue
        real = Path(os.path.realpath(here))
        inside = _within(real, real_root)
        if last and final == "replace":
            return Path(target)
        if (last and inside) or (not last and inside and links == "inside"):
            continue
        where = "outside" if not inside else "inside"
        raise UnsafePath(
            f"{what} {str(here)!r} is a symbolic link to {str(real)!r}, {where} {str(root)!r}; "
            "hexwright never writes through it",
            help="remove the link (a build folder is made again) or make it a real folder",
        )
    return Path(os.path.realpath(target)) if final == "follow" and os.path.islink(target) else Path(target)


def xml_parser():
    """The only way hexwright parses XML it did not write (an imported module's buildFile.xml, say):
    no entity expansion, no DTD loading, no network, no huge trees (XXE and billion-laughs stay out)."""
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False, huge_tree=False
    )


DATA_FOLDERS = ("scenarios", "maps", "counters", "schemas")
"""The project's data folders: no writer puts an output there unless told to with --force."""


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def special_kind(path: Path) -> str | None:
    """What `path` is when it exists and is neither a regular file nor a symbolic link ("a socket"), else None."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "a special file")


class Unforcible(str):
    """A refusal that `--force` does not lift: the target is not a regular file."""


def refuse_special(target: Path, what: str, made: str = "a file") -> Unforcible | None:
    """Why `target` may never be written, even with --force: it is a folder, FIFO, socket or device
    (renaming over it would replace it with a plain file), or None."""
    kind = special_kind(target)
    if kind is None or (made == "a folder" and kind == "a folder"):
        return None
    return Unforcible(f"{what} {str(target)!r} is {kind}, not {made}; hexwright never replaces it, even with --force")


def refuse_output(root: Path, target: Path, made: tuple[str, ...], what: str, force: bool = False) -> str | None:
    """Why writing the file `target` would destroy data, or None when it is safe.

    Always refused: a target that exists and is not a regular file or a symbolic link (`refuse_special`), and
    one reached through a folder that is a link out of the project (`confine`).
    Refused unless `force`: an empty path; a target inside the project's data folders
    (`scenarios/`, `maps/`, `counters/`, `schemas/`); a target that is a symbolic link (the write
    would replace the link); an existing file that is not of a kind this writer makes (`made`
    suffixes, e.g. `(".csv",)`), since it is someone's data, not an earlier output."""
    if not str(target).strip():
        return f"{what} is empty"
    special = refuse_special(target, what)
    if special:
        return special
    try:  # a folder on the way that is a link out of the project (or of the folder named): never, --force or not
        confine(writer_root(root, target), target, what)
    except UnsafePath as exc:
        return Unforcible(str(exc))
    if force:
        return None
    real_root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(target))
    for folder in DATA_FOLDERS:
        if _within(real, real_root / folder):
            return f"{what} {str(target)!r} is inside the project's data folder {folder}/"
    if Path(target).is_symlink():
        return f"{what} {str(target)!r} is a symbolic link; writing would replace it"
    if real.exists() and (real.is_dir() or real.suffix.lower() not in made):
        kind = "a folder" if real.is_dir() else "an existing file this command did not make"
        return f"{what} {str(target)!r} is {kind}"
    return None


def refuse_out_dir(root: Path, out: Path, force: bool = False, named: bool = True) -> str | None:
    """Why `--out DIR` of a build or an import must be refused, or None: empty, not a folder (even with
    `force`), a symbolic link (the outputs would go where it leads; a default build folder that is a link is
    `refuse_build_tree`'s to refuse, unless `named`), the project folder itself or a data folder."""
    if not str(out).strip():
        return "--out is empty"
    special = refuse_special(out, "--out", "a folder")
    if special or force:
        return special
    if named and os.path.islink(out):
        return (
            f"--out {str(out)!r} is a symbolic link to {os.path.realpath(out)!r}: the outputs would be written "
            "where it leads"
        )
    real_root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(out))
    if real == real_root:
        return f"--out {str(out)!r} is the project folder itself"
    for folder in DATA_FOLDERS:
        if _within(real, real_root / folder):
            return f"--out {str(out)!r} is inside the project's data folder {folder}/"
    return None


STAGE_FOLDERS = ("maps", "cards", "charts")
"""The stages that write into a folder of their own under `build/<game>/`."""
CACHE_FOLDERS = ("vassal", "sheets", "cards", "serve")
"""The caches under `build/.cache/`: the module's images, the sheets' and cards' pages, the preview's tiles."""


def build_folders(out: Path, game_ids, stages) -> list[Path]:
    """Every folder a build of these games and stages writes into, outermost first."""
    out = Path(out)
    folders = [out, out / ".cache", *(out / ".cache" / kind for kind in CACHE_FOLDERS)]
    for gid in game_ids:
        folders.append(out / gid)
        folders += [out / gid / stage for stage in stages if stage in STAGE_FOLDERS]
    return folders


def refuse_build_tree(root: Path, out: Path, game_ids, stages, explicit: bool = False) -> str | None:
    """Why the build folder must not be written into, or None: a folder the build writes into (the build
    folder itself unless the user named it with --out, `.cache`, a game's folder, a stage's folder) is a
    symbolic link, which could lead the outputs out of the project or into its data (a game folder that
    came with `build/<game>/maps -> ../../maps/<game>`); or it is not a folder."""
    real_root = Path(os.path.realpath(root))
    folders = build_folders(out, game_ids, stages)
    for folder in folders[1:] if explicit else folders:
        try:
            mode = os.lstat(folder).st_mode
        except OSError:  # missing (made later), or out of reach: the build's own write reports that
            continue
        if stat.S_ISLNK(mode):
            target = Path(os.path.realpath(folder))
            where = (
                "outside the project"
                if not _within(target, real_root)
                else next(
                    (f"into the project's data folder {d}/" for d in DATA_FOLDERS if _within(target, real_root / d)),
                    "elsewhere in the project",
                )
            )
            return (
                f"the build folder {str(folder)!r} is a symbolic link leading {where} ({str(target)!r}); "
                "outputs are never written through it"
            )
        if not stat.S_ISDIR(mode):
            return f"the build folder {str(folder)!r} is not a folder"
    return None
