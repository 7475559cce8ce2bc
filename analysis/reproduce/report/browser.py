"""Opens report pages in headless Chromium (Debian `chromium`) over the DevTools protocol and
reports what a reader would meet: console errors, uncaught exceptions, failed loads, images that
did not render, links to files that do not exist or anchors that are not on the page. Also takes
screenshots.

    python3 -m reproduce.report.browser check REPORT_DIR          # exit 1 on any problem
    python3 -m reproduce.report.browser shot PAGE.html OUT.png [--width 1280] [--height 900]
                                                               [--max-height 2400]
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import websocket  # Debian python3-websocket

CHECK_JS = """(() => {
  const imgs = [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src);
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  return JSON.stringify({imgs, links, ids});
})()"""


class Browser:
    """One headless Chromium with its own profile folder, one tab driven over a websocket."""

    def __init__(self, width: int = 1280, height: int = 900):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if exe is None:
            raise RuntimeError("chromium not found (Debian package chromium, see scripts/setup.sh)")
        self.profile = tempfile.mkdtemp(prefix="fs-chromium-")
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-dev-shm-usage", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
             "--allow-file-access-from-files", f"--window-size={width},{height}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = Path(self.profile) / "DevToolsActivePort"
        for _ in range(300):
            if port_file.exists() and port_file.read_text().count("\n") >= 1:
                break
            time.sleep(0.1)
        port = port_file.read_text().split("\n")[0]
        self.ws = websocket.create_connection(self._page_ws(int(port)), timeout=60)
        self.next_id = 0
        self.events: list[dict] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    @staticmethod
    def _page_ws(port: int) -> str:
        import urllib.request
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json") as r:
                    tabs = [t for t in json.load(r) if t.get("type") == "page"]
                if tabs:
                    return tabs[0]["webSocketDebuggerUrl"]
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("chromium: no page target")

    def call(self, method: str, **params):
        self.next_id += 1
        my = self.next_id
        self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def open(self, url: str) -> list[str]:
        """Loads url, waits for the load event; returns the problems seen on the way."""
        self.events.clear()
        self.call("Page.navigate", url=url)
        deadline = time.time() + 60
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            if time.time() > deadline:
                return [f"{url}: no load event in 60 s"]
            self.events.append(json.loads(self.ws.recv()))
        problems = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                problems.append("console error: " + " ".join(str(a.get("value", a.get("description", "")))
                                                              for a in p.get("args", [])))
            elif m == "Runtime.exceptionThrown":
                problems.append("exception: " + p.get("exceptionDetails", {}).get("text", ""))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                problems.append(f"console error: {p['entry'].get('text')} {p['entry'].get('url', '')}")
            elif m == "Network.loadingFailed":
                problems.append(f"failed to load: {p.get('errorText')}")
        return problems

    def evaluate(self, expr: str):
        return self.call("Runtime.evaluate", expression=expr, returnByValue=True)["result"]["value"]

    def screenshot(self, out: Path, max_height: int = 2400) -> None:
        h = self.evaluate("document.documentElement.scrollHeight")
        w = self.evaluate("window.innerWidth")  # the reader's view, not a wide table's overflow
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": w, "height": min(h, max_height), "scale": 1})
        out.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            os.killpg(self.proc.pid, 15)
            self.proc.wait(timeout=30)
            shutil.rmtree(self.profile, ignore_errors=True)


def check_page(b: Browser, page: Path) -> list[str]:
    problems = b.open(page.resolve().as_uri())
    info = json.loads(b.evaluate(CHECK_JS))
    problems += [f"image not shown: {src}" for src in info["imgs"]]
    for href in info["links"]:
        u = urlparse(href)
        if u.scheme != "file":
            problems.append(f"link leaves the report: {href}")
            continue
        target = Path(unquote(u.path))
        if not target.exists():
            problems.append(f"broken link: {href}")
        elif u.fragment and target.resolve() == page.resolve() and u.fragment not in info["ids"]:
            problems.append(f"broken anchor: #{u.fragment}")
    return [f"{page.name}: {p}" for p in problems]


def check_report(report: Path) -> list[str]:
    pages = sorted(report.glob("*.html"))
    if not pages:
        return [f"{report}: no pages"]
    b = Browser()
    try:
        return [p for page in pages for p in check_page(b, page)]
    finally:
        b.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m reproduce.report.browser")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("report")
    s = sub.add_parser("shot")
    s.add_argument("page")
    s.add_argument("out")
    s.add_argument("--width", type=int, default=1280)
    s.add_argument("--height", type=int, default=900)
    s.add_argument("--max-height", type=int, default=2400, help="crop the page to this height")
    a = ap.parse_args(argv)
    if a.cmd == "check":
        problems = check_report(Path(a.report))
        for p in problems:
            print(p)
        print(f"browser: {len(list(Path(a.report).glob('*.html')))} pages, {len(problems)} problems")
        return 1 if problems else 0
    b = Browser(a.width, a.height)
    try:
        problems = b.open(Path(a.page).resolve().as_uri())
        b.screenshot(Path(a.out), a.max_height)
    finally:
        b.close()
    for p in problems:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
