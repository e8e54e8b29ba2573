"""Run `java/Outcomes.java` (with the `PlayAids.java` helpers it calls) in the real VASSAL engine, as
`play_driver` runs PlayAids: compiled once per test session, run under a virtual display."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from play_driver import HERE, TOOL, classpath


def compile_outcomes(out: Path) -> Path:
    """Outcomes, PlayAids and the checker's stand-ins for the NetBeans wizard classes, into `out`."""
    stubs = sorted(str(p) for p in (TOOL / "src" / "stubs").rglob("*.java"))
    sources = [str(HERE / "Outcomes.java"), str(HERE / "PlayAids.java"), *stubs]
    run = subprocess.run(
        ["javac", "-nowarn", "-encoding", "UTF-8", "-d", str(out), "-cp", classpath(), *sources],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return out


def outcomes(classes: Path, *args: str) -> dict:
    """Run one Outcomes command; its JSON report."""
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
        "Outcomes",
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
