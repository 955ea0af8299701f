"""The pages' JavaScript without a browser: node's test runner on the match page's logic
(tests/js/pages.test.mjs) and the lobby's (tests/js/lobby.test.mjs), and, where the pinned tools
are installed (npm ci: .ci/run does it, and this file where npm is), TypeScript's check of the JSDoc types
(`tsc --checkJs`, tsconfig.json) and ESLint."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> str:
    if name != "node" and not (ROOT / "node_modules" / ".bin" / name).exists() and shutil.which("npm"):
        # The README's test command installs nothing but Python's: the pinned checkers come from
        # package-lock.json here, once (npm's registry is needed the first time).
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT,
                       capture_output=True, timeout=600)
    found = shutil.which("node") if name == "node" else str(ROOT / "node_modules" / ".bin" / name)
    if not found or not Path(found).exists():
        if os.environ.get("NOMV_REQUIRE_BROWSER"):
            pytest.fail(f"{name} is not installed (.ci/run installs it: npm ci)")
        pytest.skip(f"{name} is not installed (npm ci)")
    return found


def test_the_pages_logic_under_node():
    run = subprocess.run([tool("node"), "--test", *(str(ROOT / "tests" / "js" / f"{name}.test.mjs")
                                                    for name in ("pages", "lobby"))],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout


def test_the_pages_javascript_type_checks_and_lints():
    tsc = subprocess.run([tool("tsc"), "-p", str(ROOT / "tsconfig.json")], capture_output=True, text=True,
                         timeout=300, cwd=ROOT)
    assert tsc.returncode == 0, tsc.stdout[-4000:]
    lint = subprocess.run([tool("eslint"), "nomv/server/static/js", "tests/js"], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert lint.returncode == 0, lint.stdout[-4000:]
