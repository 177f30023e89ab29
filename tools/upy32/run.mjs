#!/usr/bin/env node
// Run a MicroPython script on the 32-bit WebAssembly port of MicroPython.
//
// Usage:
//   node tools/upy32/run.mjs [--heap BYTES] [--timeout SECONDS]
//                            --path DIR [--path DIR ...] SCRIPT.py [args...]
//
// Why: the Unix port is a 64-bit build whose small ints reach about 2^62, so
// it cannot show the allocations a 32-bit Pico makes for ints above 2^30.  This
// VM is 32-bit (sys.maxsize == 2**31 - 1) and behaves like the Pico there.
//
// What it does:
// - every .py file under each --path DIR (recursively, package folders kept)
//   is copied into the VM's in-memory file system and DIR is put on sys.path,
//   in the order given; SCRIPT's own folder comes first, as on the Unix port;
// - a host path relative to the current directory keeps that relative path
//   inside the VM, rooted at "/" (firmware/samsara/x.py -> /firmware/samsara/x.py),
//   so tracebacks name familiar files; other paths go to /pathN/;
// - sys.argv is [SCRIPT, args...]; the script runs with __name__ == "__main__";
// - the exit status is 0 on success, the SystemExit code if it raised one,
//   1 on any other uncaught exception (traceback on stderr), 124 on timeout.
//   (The package's own command-line mode exits 0 even when the script raised.)
//
// --heap BYTES (suffix K or M allowed) sets the *initial* MicroPython heap.
// This build grows its heap on demand (split heap), so --heap does NOT cap
// memory: use the Unix port's `-X heapsize=` to test running out of memory.
// --timeout SECONDS (default 300, 0 = none) kills a hung VM: the script then
// runs in a child process so a busy loop inside WebAssembly can be stopped.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const USAGE =
  "usage: node tools/upy32/run.mjs [--heap BYTES] [--timeout SECONDS] " +
  "--path DIR [--path DIR ...] SCRIPT.py [args...]";
const CHILD_ENV = "SAMSARA_UPY32_CHILD";

function die(msg, code = 2) {
  process.stderr.write(msg + "\n");
  process.exit(code);
}

function parseSize(text) {
  const m = /^(\d+)([kKmM]?)$/.exec(text);
  if (!m) die(`bad size: ${text}\n${USAGE}`);
  const mult = { "": 1, k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()];
  return parseInt(m[1], 10) * mult;
}

function parseArgs(argv) {
  const opts = { heap: 1024 * 1024, timeout: 300, paths: [], script: null, args: [] };
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--heap" || a === "--path" || a === "--timeout") {
      if (i + 1 >= argv.length) die(`${a} needs a value\n${USAGE}`);
      const v = argv[++i];
      if (a === "--heap") opts.heap = parseSize(v);
      else if (a === "--timeout") opts.timeout = Number(v);
      else opts.paths.push(v);
    } else if (a === "-h" || a === "--help") {
      process.stdout.write(USAGE + "\n");
      process.exit(0);
    } else if (a.startsWith("--")) {
      die(`unknown option ${a}\n${USAGE}`);
    } else {
      break;
    }
  }
  if (i >= argv.length) die(USAGE);
  opts.script = argv[i];
  opts.args = argv.slice(i + 1);
  if (!(opts.timeout >= 0)) die(`bad --timeout\n${USAGE}`);
  return opts;
}

// Host path -> absolute path inside the VM's file system.
function vmPathOf(hostPath, fallback) {
  const rel = path.relative(process.cwd(), path.resolve(hostPath));
  if (rel === "") return "/";
  if (rel.startsWith("..") || path.isAbsolute(rel)) return fallback;
  return "/" + rel.split(path.sep).join("/");
}

function* pyFiles(dir) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, ent.name);
    if (ent.isDirectory()) {
      if (ent.name !== "__pycache__" && !ent.name.startsWith(".")) yield* pyFiles(full);
    } else if (ent.name.endsWith(".py")) {
      yield full;
    }
  }
}

function copyIn(FS, hostFile, vmFile) {
  FS.mkdirTree(vmFile.slice(0, vmFile.lastIndexOf("/")) || "/");
  FS.writeFile(vmFile, fs.readFileSync(hostFile));
}

// Python side: run the script, turn every outcome into an exit status.  Runs
// inside a function so the except clauses bind locals (no heap needed) and
// unlock a heap the script may have left locked before doing anything else;
// an exception escaping runPython with the heap locked hangs the VM.
const HARNESS = `
def _samsara_run(script, argv, paths):
    import sys
    try:
        import micropython
    except ImportError:
        micropython = None

    def unlock():
        if micropython is not None:
            micropython.heap_lock()
            while micropython.heap_unlock():
                pass

    sys.argv.clear()
    sys.argv.extend(argv)
    sys.path.clear()
    sys.path.extend(paths)
    try:
        with open(script) as f:
            code = compile(f.read(), script, "exec")
        exec(code, {"__name__": "__main__", "__file__": script})
        return 0
    except SystemExit as e:
        unlock()
        rc = e.args[0] if e.args else None
        if rc is None:
            return 0
        if isinstance(rc, int):
            return rc & 0xFF
        print(rc, file=sys.stderr)
        return 1
    except BaseException as e:
        unlock()
        sys.print_exception(e, sys.stderr)
        return 1
`;

async function runInProcess(opts) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  let mpmod;
  try {
    mpmod = await import("@micropython/micropython-webassembly-pyscript");
  } catch (e) {
    die(
      `cannot load the MicroPython WebAssembly package (${e.message}).\n` +
        `Install it with: npm ci --prefix ${path.relative(process.cwd(), here) || "."}`,
    );
  }

  // Unbuffered byte callbacks, gathered here so output stays in order and
  // partial last lines are not lost.
  const out = { bytes: [], fd: 1 };
  const err = { bytes: [], fd: 2 };
  const flush = (s) => {
    if (s.bytes.length) {
      fs.writeSync(s.fd, Buffer.from(s.bytes));
      s.bytes = [];
    }
  };
  const sink = (s, other) => (data) => {
    flush(other);
    for (const c of data) s.bytes.push(c);
    if (data[data.length - 1] === 10 || s.bytes.length > 4096) flush(s);
  };

  const mp = await mpmod.loadMicroPython({
    heapsize: opts.heap,
    linebuffer: false,
    stdout: sink(out, err),
    stderr: sink(err, out),
  });

  const vmPaths = [];
  opts.paths.forEach((dir, n) => {
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) die(`--path ${dir}: not a directory`);
    const root = vmPathOf(dir, `/path${n}`);
    for (const f of pyFiles(dir)) {
      copyIn(mp.FS, f, root.replace(/\/$/, "") + "/" + path.relative(dir, f).split(path.sep).join("/"));
    }
    vmPaths.push(root);
  });

  if (!fs.existsSync(opts.script)) die(`${opts.script}: no such file`);
  const script = vmPathOf(opts.script, "/main/" + path.basename(opts.script));
  copyIn(mp.FS, opts.script, script);
  const scriptDir = script.slice(0, script.lastIndexOf("/")) || "/";
  const sysPath = [scriptDir, ...vmPaths.filter((p) => p !== scriptDir), ".frozen", "/lib"];

  mp.runPython(HARNESS);
  let rc;
  try {
    mp.runPython(
      "_samsara_rc = _samsara_run(" +
        [script, [script, ...opts.args], sysPath].map((v) => JSON.stringify(v)).join(", ") +
        ")",
    );
    rc = mp.globals.get("_samsara_rc");
  } catch (e) {
    flush(out);
    process.stderr.write(`upy32: ${e.message || e}\n`);
    rc = 1;
  }
  flush(out);
  flush(err);
  return typeof rc === "number" ? rc : 1;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.timeout > 0 && !process.env[CHILD_ENV]) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, [CHILD_ENV]: "1" },
    timeout: opts.timeout * 1000,
    killSignal: "SIGKILL",
  });
  if (r.error && r.error.code === "ETIMEDOUT") {
    die(`upy32: ${opts.script} timed out after ${opts.timeout} s`, 124);
  }
  if (r.error) die(`upy32: ${r.error.message}`, 1);
  process.exit(r.status ?? 1);
} else {
  process.exit(await runInProcess(opts));
}
