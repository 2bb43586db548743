// A board's USB drive (CIRCUITPY, or its UF2 bootloader's) through the File System Access API: the
// folder handle showDirectoryPicker gives (tests: the Origin Private File System's, same interface).
// setup.js drives it; the Bluetooth file transfer drive offers the same methods.
//
// A file is written under a temporary name and moved over the old one (FileSystemHandle.move(),
// Chromium 156), so a full drive or a pulled cable leaves each file old or new, never cut short;
// where move() is missing or refused, the file is written in place (Chromium writes a swap file
// and puts it in place on close) and the temporary one removed. The same prefix as `tablelight
// flash` (flash/install.py), so either removes the other's leftovers.
export const TEMP_PREFIX = ".tablelight-partial-";
export const FOLDER = Symbol("folder");  // read(): a folder where a file was asked for
const CHUNK = 16384;

// An aborted stream lets go of its file a moment after abort() settles (Chromium): removing the
// file is tried again meanwhile, a few times.
async function removeSoon(dir, name) {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      await dir.removeEntry(name);
      return;
    } catch (error) {
      if (error.name === "NotFoundError") return;
      if (error.name !== "NoModificationAllowedError") break;
      await new Promise((resolve) => { setTimeout(resolve, 50); });
    }
  }
}

export function usbDrive(root) {
  async function folderOf(path, create) {
    const parts = path.split("/");
    let dir = root;
    for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create });
    return [dir, parts[parts.length - 1]];
  }

  async function writeInto(handle, bytes, progress) {
    const out = await handle.createWritable();
    try {
      for (let start = 0; start < bytes.length; start += CHUNK) {
        const chunk = bytes.subarray(start, start + CHUNK);
        await out.write(chunk);
        progress(chunk.length);
      }
      await out.close();
    } catch (error) {
      await out.abort().catch(() => {});
      throw error;
    }
  }

  return {
    name: root.name || "CIRCUITPY",
    // the top-level entries: {files: [names], folders: [names]}
    async top() {
      const files = [];
      const folders = [];
      for await (const [name, handle] of root.entries()) (handle.kind === "file" ? files : folders).push(name);
      return { files: files.sort(), folders: folders.sort() };
    },
    // the file's bytes, null when absent, FOLDER when a folder has its name
    async read(path) {
      try {
        const [dir, name] = await folderOf(path, false);
        const handle = await dir.getFileHandle(name);
        return new Uint8Array(await (await handle.getFile()).arrayBuffer());
      } catch (error) {
        if (error.name === "NotFoundError") return null;
        if (error.name === "TypeMismatchError") return FOLDER;
        throw error;
      }
    },
    async write(path, bytes, progress = () => {}) {
      const [dir, name] = await folderOf(path, true);
      const temp = await dir.getFileHandle(TEMP_PREFIX + name, { create: true });
      try {
        await writeInto(temp, bytes, progress);
        if (typeof temp.move === "function") {
          try {
            await temp.move(name);
            return;
          } catch (error) {
            if (!["NotSupportedError", "InvalidModificationError", "NoModificationAllowedError", "TypeError"].includes(error.name)) throw error;
          }
        }
        await writeInto(await dir.getFileHandle(name, { create: true }), bytes, () => {});
        await dir.removeEntry(TEMP_PREFIX + name);
      } catch (error) {
        await removeSoon(dir, TEMP_PREFIX + name);
        throw error;
      }
    },
    // temporary files of an earlier setting up that was cut off: never whole, never used
    async removeLeftovers() {
      for (const folder of [root, await root.getDirectoryHandle("lib").catch(() => null)]) {
        if (!folder) continue;
        const stale = [];
        for await (const [name] of folder.entries()) if (name.startsWith(TEMP_PREFIX)) stale.push(name);
        for (const name of stale) await folder.removeEntry(name).catch(() => {});
      }
    },
    // copying a .uf2 onto a bootloader drive: it restarts as soon as it has the last block, so
    // the drive may vanish before the copy closes (that is success: the caller checks the size written)
    async copyWhole(name, bytes, progress = () => {}) {
      const handle = await root.getFileHandle(name, { create: true });
      await writeInto(handle, bytes, progress);
    },
  };
}
