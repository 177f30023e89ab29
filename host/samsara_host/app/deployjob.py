"""The board page's firmware deploy (docs/app.md "Deploy"): builds the bundle as
`samsara deploy` does (samsara_host.deploy_cmd), hands it to the BoardWatch (which
releases the port and runs deploy_cmd.deploy_files), records the copy's progress,
waits for the board to come back and reads the new bundle hash from `hello`.

    deploys = Deploys(watch, bundle=None)  # bundle: a built folder, or None (build it)
    state = deploys.start()                # raises DeployRefused (busy, no board)
    deploys.state()                        # the job's dict, polled by the page

At most one deploy runs at a time; a failure (no MicroPython, a damaged copy, the
port gone mid-copy) ends the job with words for the page, and the watch reconnects.
"""
import threading
import time

from samsara_host import deploy_cmd

RECONNECT_S = 45.0
"""Seconds a deployed board has to answer `hello` again."""
COPY_S = 900.0
"""Seconds a whole copy may take (the watch's job future)."""


class DeployRefused(Exception):
    """A deploy cannot start now (one is running, no board); str() says why."""


class Deploys:
    """The app's deploys (module docstring).  watch: a started BoardWatch or None;
    bundle: a bundle folder to copy as it is, or None to build one with mpy-cross and
    its hash stamped by the build (deploy_cmd.build_bundle)."""

    def __init__(self, watch, bundle=None, reconnect_s=RECONNECT_S):
        self.watch = watch
        self.bundle = bundle
        self.reconnect_s = reconnect_s
        self._lock = threading.Lock()
        self._job = {"state": "none", "events": []}
        self._thread = None

    # -- for the server ------------------------------------------------------------
    def state(self):
        """The last job as a dict: state ("none", "building", "copying",
        "reconnecting", "done", "failed"), running (bool), percent (0..100), path,
        done and total (bytes), events [{event, path, done, total, percent}] in the
        order deploy_files reported them, old_hash, new_hash, written, skipped,
        message (the outcome in words) and error (words, or None)."""
        with self._lock:
            out = dict(self._job)
            out["events"] = list(self._job["events"])
        out["running"] = out["state"] in ("building", "copying", "reconnecting")
        return out

    def start(self, force=False):
        """Start a deploy in the background; returns state().  Raises DeployRefused
        while one runs or without a connected board."""
        with self._lock:
            if self._job["state"] in ("building", "copying", "reconnecting"):
                raise DeployRefused("A deploy is already running: wait for it to finish.")
            if self.watch is None or not self.watch.connected:
                raise DeployRefused("No board is connected: plug it in to deploy firmware.")
            hello = self.watch.model.hello or {}
            self._job = {"state": "building", "events": [], "percent": 0, "path": "",
                         "done": 0, "total": 0, "old_hash": hello.get("hash"),
                         "new_hash": None, "written": [], "skipped": [],
                         "message": "Building the firmware bundle ...", "error": None,
                         "started": time.time()}
            self._thread = threading.Thread(target=self._run, args=(bool(force),),
                                            daemon=True, name="deploy")
            self._thread.start()
        return self.state()

    def wait(self, timeout=None):
        """Wait for the running job's thread (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    # -- the job -------------------------------------------------------------------
    def _set(self, **kw):
        with self._lock:
            self._job.update(kw)

    def _progress(self, event, path, done, total):
        pct = 100 if total <= 0 else min(100, done * 100 // total)
        with self._lock:
            self._job["events"].append({"event": event, "path": path, "done": done,
                                        "total": total, "percent": pct})
            self._job.update(path=path, done=done, total=total, percent=pct)
            if event == "start":
                self._job["message"] = "Copying %d bytes ..." % total

    def _files(self):
        if self.bundle is not None:
            return deploy_cmd.bundle_files(self.bundle)
        root = deploy_cmd.repo_root()
        return deploy_cmd.bundle_files(deploy_cmd.build_bundle(root))

    def _run(self, force):
        seen = {"path": None, "done": 0}
        files = []

        def progress(event, path, done, total):
            if event in ("skip", "verified"):
                seen["done"] += 1
            elif event == "write":
                seen["path"] = path
            self._progress(event, path, done, total)

        try:
            files = self._files()
            self._set(state="copying", message="Waiting for the board's REPL ...",
                      total=sum(len(d) for _p, d in files))
            fut = self.watch.submit("deploy", files, progress, force)
            report = fut.result(timeout=COPY_S)
        except Exception as e:
            self._set(state="failed", error=self._words(e, seen, len(files)),
                      message="The deploy failed.")
            return
        self._set(state="reconnecting", written=list(report["written"]),
                  skipped=list(report["skipped"]), percent=100,
                  message="Copied and verified; waiting for the board to restart ...")
        end = time.monotonic() + self.reconnect_s
        while not self.watch.connected and time.monotonic() < end:
            time.sleep(0.1)
        if not self.watch.connected:
            self._set(state="failed", error="The files were copied and verified, but the "
                      "board did not come back: unplug it and plug it in again.")
            return
        new = (self.watch.model.hello or {}).get("hash")
        machine = report["implementation"][2]
        with self._lock:
            old = self._job.get("old_hash")
        if not report["written"]:
            msg = "Firmware up to date: every file on the board was already this bundle's."
        elif deploy_cmd.is_unix_port(machine):
            msg = deploy_cmd.UNIX_PORT_NOTE % deploy_cmd.bundle_hash(files)
        elif new == old:
            msg = ("%d files written and verified; the board still reports bundle %s."
                   % (len(report["written"]), new))
        else:
            msg = ("%d files written and verified; the board now runs bundle %s."
                   % (len(report["written"]), new))
        self._set(state="done", new_hash=new, message=msg)

    @staticmethod
    def _words(e, seen, n):
        from samsara_host import boardlink
        if isinstance(e, (deploy_cmd.DeployError, boardlink.LinkError)):
            return str(e)
        if deploy_cmd._is_gone(e):
            return "The board went away (%s)%s" % (boardlink.serial_words(e),
                                                  deploy_cmd._cut_words(seen, n))
        return "The deploy failed: %s" % (e or e.__class__.__name__)
