#!/usr/bin/env python3
"""Runs a list of page jobs in one headless Chromium (the browser tests' driver).

A Chromium start costs seconds on a small machine whatever the page, so the browser tests
(report_in_chromium.sh, diff_in_chromium.sh) hand every page they need laid out to one browser
and talk to it over the DevTools protocol on a pipe (--remote-debugging-pipe: messages of JSON,
each ended by a NUL byte, read from fd 3 and written to fd 4), with Python's standard library
only.

usage: chromium_session.py BROWSER LOG JOBS
  BROWSER  the Chromium to start; its own messages go to LOG
  JOBS     a file of jobs, one a line, fields separated by tabs: KIND WIDTH HEIGHT URL OUTPUT
           [PNG]
    dom         lays URL out in a WIDTH x HEIGHT window, waits until its <pre id="result"> no
                longer says PENDING (the checking pages fill it on load), and writes the page's
                DOM to OUTPUT, as chromium --dump-dom prints it
    screenshot  writes a PNG of the window's WIDTH x HEIGHT to OUTPUT
    requests    loads URL and writes to OUTPUT the URL of every request the page started, one a
                line (the page's own document is not one), an empty file when it started none;
                then, given PNG, a screenshot of the window to PNG
Exits 0 when every job ran; 1, naming the job, when one could not (the output is then missing).
"""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

PAGE_TIMEOUT_S = 60


class Browser:
    def __init__(self, browser, profile, log):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def give_pipes():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [browser, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             "--disable-extensions", "--disable-default-apps", "--no-pings",
             "--hide-scrollbars", "--allow-file-access-from-files",
             "--remote-debugging-pipe", "--user-data-dir=" + profile,
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=False,
            preexec_fn=give_pipes)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Network", "Runtime"):
            self.call(domain + ".enable", session=True)

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from the browser")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=False):
        self.next_id += 1
        request = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            request["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(request).encode() + b"\0")
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        while True:
            message = self.read_message(deadline)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            if "method" in message:
                self.events.append(message)

    def wait_for_event(self, method):
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        seen = 0
        while True:
            for event in self.events[seen:]:
                if event["method"] == method:
                    return event
            seen = len(self.events)
            message = self.read_message(deadline)
            if "method" in message:
                self.events.append(message)

    def load(self, url, width, height):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=True)
        self.events.clear()
        self.call("Page.navigate", {"url": url}, session=True)
        return self.wait_for_event("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                           session=True)
        return result["result"].get("value")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True},
                         session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except (EOFError, OSError, TimeoutError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def run_job(browser, kind, width, height, url, output, png=None):
    if kind == "requests":
        started = []
        browser.load(url, width, height)
        # What the page requested before its load event is among the events read so far; the
        # navigation's own document request has the page's URL.
        for event in browser.events:
            if event["method"] == "Network.requestWillBeSent":
                request_url = event["params"]["request"]["url"]
                if request_url != url:
                    started.append(request_url)
        with open(output, "w") as f:
            f.writelines(u + "\n" for u in sorted(set(started)))
        if png:
            browser.screenshot(png)
        return
    browser.load(url, width, height)
    if kind == "dom":
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        while browser.evaluate("document.getElementById('result').textContent") == "PENDING":
            if time.monotonic() > deadline:
                raise TimeoutError("the page's result stayed PENDING")
            time.sleep(0.05)
        with open(output, "w") as f:
            f.write(browser.evaluate("document.documentElement.outerHTML") + "\n")
    elif kind == "screenshot":
        browser.screenshot(output)
    else:
        raise ValueError(f"unknown job kind {kind!r}")


def main():
    if len(sys.argv) != 4:
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    browser_path, log_path, jobs_path = sys.argv[1:]
    with open(jobs_path) as f:
        jobs = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    status = 0
    with open(log_path, "a") as log, tempfile.TemporaryDirectory() as profile:
        try:
            browser = Browser(browser_path, profile, log)
        except (EOFError, OSError, RuntimeError, TimeoutError) as e:
            print(f"FAIL: {browser_path} could not be driven: {e}")
            return 1
        try:
            for kind, width, height, url, output, *png in jobs:
                try:
                    run_job(browser, kind, int(width), int(height), url, output, *png)
                except (RuntimeError, TimeoutError, ValueError) as e:
                    print(f"FAIL: {kind} of {url} at {width}x{height}: {e}")
                    status = 1
        except (EOFError, OSError) as e:
            print(f"FAIL: the browser stopped answering: {e}")
            status = 1
        finally:
            browser.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
