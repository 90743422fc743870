// Runs Python under the MicroPython WebAssembly port and answers one request per line.
//
// node host.mjs RUNTIME HEAP_BYTES DIR...
// Each DIR's .py files (recursively) are copied into MicroPython's file system and put on
// sys.path; then every line read from stdin is handed to host.serve() (host.py) and its
// answer written as one line. A Python error answers "!" and the message on one line.
// What the Python code prints goes to stderr, so it cannot upset the answers.
import { createInterface } from "node:readline";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, heap, ...dirs] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(runtime).href);
const mp = await loadMicroPython({
  heapsize: parseInt(heap, 10),
  stdout: (line) => process.stderr.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
  linebuffer: true,
});

function copy(from, to) {
  mp.FS.mkdir(to);
  for (const name of readdirSync(from)) {
    const path = join(from, name);
    if (statSync(path).isDirectory()) {
      if (name !== "__pycache__" && !name.startsWith(".")) copy(path, to + "/" + name);
    } else if (name.endsWith(".py")) {
      mp.FS.writeFile(to + "/" + name, readFileSync(path));
    }
  }
}

const paths = dirs.map((dir, i) => {
  copy(dir, "/m" + i);
  return "/m" + i;
});
mp.runPython("import sys\nsys.path[:0] = " + JSON.stringify(paths) + "\nimport host\n");
const serve = mp.pyimport("host").serve;

function answer(line) {
  try {
    return String(serve(line));
  } catch (error) {
    return "!" + String(error.message || error).trim().replace(/\n/g, " | ");
  }
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
process.stdout.write("ready " + answer("runtime") + "\n");
for await (const line of input) {
  process.stdout.write(answer(line) + "\n");
}
