"""Run `java/PlayAids.java` in the real VASSAL engine of ../shared/tools/vassal-check: compiled once per
test session against the checker's engine jar and Debian dependency jars, run under a virtual display."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent / "java"
TOOL = HERE.parents[2] / ".." / "shared" / "tools" / "vassal-check"
CACHE = Path(
    os.environ.get("VASSAL_CHECK_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "vassal-check"
)
ENGINE = Path(os.environ.get("VASSAL_ENGINE_JAR") or CACHE / "Vengine.jar")
DEPENDENCIES = (
    "logback-classic",
    "logback-core",
    "slf4j-api",
    "commons-lang3",
    "commons-io",
    "commons-codec",
    "jsoup",
    "swingx-core",
    "TimingFramework",
    "miglayout-core",
    "miglayout-swing",
    "gnu-getopt",
    "maven-artifact-3.x",
    "plexus-utils2",
    "batik-all",
    "xmlgraphics-commons",
    "xml-apis-ext",
    "commons-logging",
    "httpclient5",
    "httpcore5",
    "httpcore5-h2",
)
"""The engine's runtime jars, as the checker's own script lists them (setup.sh installs them)."""


def missing() -> str | None:
    """Why the driver cannot run here, or None."""
    if not ENGINE.is_file():
        return f"no VASSAL engine jar at {ENGINE} (run ../shared/tools/vassal-check/setup.sh)"
    for tool in ("javac", "java", "xvfb-run"):
        if shutil.which(tool) is None:
            return f"{tool} not installed"
    return None


def classpath() -> str:
    jars = [str(ENGINE)] + [str(p) for d in DEPENDENCIES if (p := Path("/usr/share/java") / f"{d}.jar").is_file()]
    return os.pathsep.join(jars)


def compile_driver(out: Path, source: str = "PlayAids.java", *more: str) -> Path:
    """A driver (`java/<source>`: PlayAids by default, with the `more` sources it calls) and the checker's
    stand-ins for the NetBeans wizard classes the engine loads, into `out`."""
    stubs = sorted(str(p) for p in (TOOL / "src" / "stubs").rglob("*.java"))
    run = subprocess.run(
        [
            "javac",
            "-nowarn",
            "-encoding",
            "UTF-8",
            "-d",
            str(out),
            "-cp",
            classpath(),
            str(HERE / source),
            *(str(HERE / m) for m in more),
            *stubs,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return out


def play(classes: Path, *args: str, main: str = "PlayAids") -> dict:
    """Run one command of the driver `main`; its JSON report (problems listed there fail the caller's asserts)."""
    conf = classes / "conf"
    conf.mkdir(exist_ok=True)
    java = [
        "java",
        "-Xmx1g",
        "-Djava.awt.headless=false",
        f"-DVASSAL.conf={conf}",
        f"-Duser.home={conf}",
        f"-Dlogback.configurationFile={TOOL / 'src' / 'logback.xml'}",
        "-cp",
        os.pathsep.join([str(classes), classpath()]),
        main,
        *args,
    ]
    run = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", "timeout", "240", *java],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.stdout.strip(), f"no report (exit {run.returncode}): {run.stderr[-2000:]}"
    return json.loads(run.stdout)
