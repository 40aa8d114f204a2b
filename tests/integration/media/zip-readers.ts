/**
 * Shared by the zip-*.test.ts integration tests: reads an archive on disk with tools that did
 * not write it (Python's zipfile, Info-ZIP unzip and zipinfo, 7-Zip, libarchive's bsdtar).
 * A tool that is not installed is reported as absent, and its checks are skipped.
 */
import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);
const UTF8_ENV = { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" };

export function installed(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
}

export async function run(tool: string, args: string[], options: { cwd?: string } = {}): Promise<string> {
  const { stdout } = await execFileAsync(tool, args, { env: UTF8_ENV, maxBuffer: 256 * 1024 * 1024, cwd: options.cwd });
  return stdout;
}

export interface PythonEntry {
  name: string;
  size: number;
  crc: number;
  sha256: string;
  flags: number;
}

/**
 * Python's zipfile opens the archive, reads every entry to its end (zipfile raises when the CRC
 * of the bytes read differs from the recorded one) and hashes it.
 */
const PYTHON_READER = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    out = []
    for info in z.infolist():
        h = hashlib.sha256()
        with z.open(info) as f:
            while True:
                block = f.read(1 << 20)
                if not block:
                    break
                h.update(block)
        out.append({"name": info.filename, "size": info.file_size, "crc": info.CRC, "sha256": h.hexdigest(), "flags": info.flag_bits})
    json.dump(out, sys.stdout)
`;

export async function readWithPython(file: string): Promise<PythonEntry[]> {
  return JSON.parse(await run("python3", ["-c", PYTHON_READER, file])) as PythonEntry[];
}
