#!/usr/bin/env node
// Heap measurements on the 32-bit WebAssembly port of MicroPython.
//
// Usage:
//   node tools/upy32/heapstep.mjs --path DIR [--path DIR ...] MODULE [args...]
//
// Imports MODULE (found on the --path folders) and drives its Probe class
// (tests/fakes/fwprobe.py): `p = MODULE.Probe([args...])`, then repeatedly
// `label = p.step()` until it returns None, and after every step `gc.collect()`
// and `p.record(label, gc.mem_alloc())`.
//
// Why a driver in JavaScript: on this port gc.collect() called from inside a running
// script frees (almost) nothing: the collector scans the WebAssembly/C stack
// conservatively and the running script leaves stale pointers there.  Called from a
// fresh top-level runPython() call, with nothing of the script on the stack, it frees
// what is unreachable (checked: 2000 discarded lists come back).  So every step, the
// collection and the reading of gc.mem_alloc() are separate runPython() calls.
// The heap figures are the 32-bit VM's own: 4-byte words and 16-byte GC blocks, as
// on the Pico.
//
// Every file under each --path DIR (.py and .mpy, package folders kept) is copied
// into the VM's in-memory file system, like tools/upy32/run.mjs does for .py files.
// Exit status 0 on success, 1 when the probe raised (traceback on stderr).

import fs from "node:fs";
import path from "node:path";

const USAGE = "usage: node tools/upy32/heapstep.mjs --path DIR [--path DIR ...] MODULE [args...]";

function die(msg, code = 2) {
  process.stderr.write(msg + "\n");
  process.exit(code);
}

const argv = process.argv.slice(2);
const paths = [];
let i = 0;
for (; i < argv.length && argv[i] === "--path"; i += 2) {
  if (i + 1 >= argv.length) die(USAGE);
  paths.push(argv[i + 1]);
}
if (i >= argv.length) die(USAGE);
const moduleName = argv[i];
const args = argv.slice(i + 1);

function vmPathOf(hostPath, n) {
  const rel = path.relative(process.cwd(), path.resolve(hostPath));
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return `/path${n}`;
  return "/" + rel.split(path.sep).join("/");
}

function copyTree(FS, dir, vm) {
  FS.mkdirTree(vm);
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, ent.name);
    if (ent.isDirectory()) {
      if (ent.name !== "__pycache__" && !ent.name.startsWith(".")) copyTree(FS, full, vm + "/" + ent.name);
    } else if (ent.name.endsWith(".py") || ent.name.endsWith(".mpy")) {
      FS.writeFile(vm + "/" + ent.name, fs.readFileSync(full));
    }
  }
}

let mpmod;
try {
  mpmod = await import("@micropython/micropython-webassembly-pyscript");
} catch (e) {
  die(`cannot load the MicroPython WebAssembly package (${e.message}): npm ci --prefix tools/upy32`);
}
const out = (fd) => (data) => fs.writeSync(fd, Buffer.from(data));
const mp = await mpmod.loadMicroPython({ heapsize: 1024 * 1024, linebuffer: false,
                                         stdout: out(1), stderr: out(2) });
const vmPaths = paths.map((dir, n) => {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) die(`--path ${dir}: not a directory`);
  const root = vmPathOf(dir, n);
  copyTree(mp.FS, dir, root);
  return root;
});

const py = (code) => mp.runPython(code);
try {
  py("import gc, sys\nsys.path.clear()\nsys.path.extend(" + JSON.stringify(vmPaths) + ")\n" +
     "import " + moduleName + " as _m\n_p = _m.Probe(" + JSON.stringify(args) + ")\n_l = None");
  for (;;) {
    py("_l = _p.step()");
    if (mp.globals.get("_l") == null) break;
    py("gc.collect()");
    py("_p.record(_l, gc.mem_alloc())");
  }
} catch (e) {
  process.stderr.write(`heapstep: ${e.message || e}\n`);
  process.exit(1);
}
process.exit(0);
