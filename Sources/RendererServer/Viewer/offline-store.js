// What the viewer keeps in this browser for reading and annotating offline, in one IndexedDB
// database that the page and the service worker (service-worker.js) share. A classic script,
// not a module, because a service worker's modules are fetched without the cookie that
// carries the server's token: the page loads it with a script element and the worker with
// `importScripts`, and both find it as `self.offlineStore`.
//
// - `kept`: each server response the service worker keeps, by address: its size in bytes and
//   when it was last used (the responses themselves are in the Cache Storage `KEPT_CACHE`);
// - `settings`: the reader's storage budget (`budget`, bytes) and what the kept responses
//   take in all (`keptBytes`);
// - `outbox`: changes made while the server could not be reached, in the order they were made,
//   each with its `kind` (`annotation`: a collaboration layer's change; `form`: a fill) and the
//   reader and document (and layer) it belongs to;
// - `conflicts`: offline changes refused when they were sent (another reader changed the
//   annotation or the fields meanwhile), kept until the reader sends theirs again or lets it go.

(() => {
  /** The Cache Storage that holds the responses kept for offline reading. */
  const KEPT_CACHE = "renderer-viewer-kept";

  /** The Cache Storage that holds the viewer's own page, scripts and style sheet. */
  const SHELL_CACHE = "renderer-viewer-shell";

  /** The storage budget a reader has until they choose another, in bytes. */
  const DEFAULT_BUDGET = 200 * 1024 * 1024;

  /** The budgets a reader may choose from, in bytes. */
  const BUDGETS = [50, 200, 500, 1000].map((megabytes) => megabytes * 1024 * 1024);

  const STORES = {
    kept: { keyPath: "url" },
    settings: { keyPath: "name" },
    outbox: { keyPath: "sequence", autoIncrement: true },
    conflicts: { keyPath: "operationID" },
  };

  let opening = null;

  function database() {
    if (!opening) {
      opening = new Promise((resolve, reject) => {
        const request = indexedDB.open("renderer-viewer-offline", 1);
        request.onupgradeneeded = () => {
          for (const [name, options] of Object.entries(STORES)) {
            if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name, options);
          }
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => { opening = null; reject(request.error); };
      });
    }
    return opening;
  }

  /**
   * Runs `work(stores)` in one transaction over the stores `names` (`mode` "readonly" or
   * "readwrite"); resolves to what `work` resolved to once the transaction is committed, so a
   * write is durable when the promise settles.
   */
  async function transaction(names, mode, work) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(names, mode);
      const stores = Object.fromEntries(names.map((name) => [name, tx.objectStore(name)]));
      let result;
      Promise.resolve(work(stores)).then((value) => { result = value; }, (error) => { tx.abort(); reject(error); });
      tx.oncomplete = () => resolve(result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }

  /** A request's result as a promise. */
  function settled(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  /** Every record of store `name`, in key order. */
  function all(name) {
    return transaction([name], "readonly", (stores) => settled(stores[name].getAll()));
  }

  /** The reader's storage budget, in bytes. */
  async function budget() {
    const held = await transaction(["settings"], "readonly", (stores) => settled(stores.settings.get("budget")));
    return held ? held.value : DEFAULT_BUDGET;
  }

  /**
   * Sets the reader's storage budget to `bytes` (one of `BUDGETS`) and gives up the least
   * recently used kept responses that no longer fit.
   */
  async function setBudget(bytes) {
    await transaction(["settings"], "readwrite", (stores) => settled(stores.settings.put({ name: "budget", value: bytes })));
    await noteKept(null, 0);
  }

  /**
   * Records that the response to `address` (null: none) now takes `bytes` in `KEPT_CACHE`, then
   * gives up the least recently used responses (never `address`'s) until the kept ones fit the
   * budget; resolves once the cache holds no more than the records say.
   */
  async function noteKept(address, bytes) {
    const limit = await budget();
    const gone = await transaction(["kept", "settings"], "readwrite", async (stores) => {
      // The sum of the sizes is kept beside them, so that a keep within the budget reads one
      // record, not every one.
      const before = address ? await settled(stores.kept.get(address)) : null;
      const sum = await settled(stores.settings.get("keptBytes"));
      let total = (sum ? sum.value : 0) + bytes - (before ? before.bytes : 0);
      if (address) stores.kept.put({ url: address, bytes, used: Date.now() });
      const evicted = [];
      if (total > limit) {
        const entries = (await settled(stores.kept.getAll())).sort((a, b) => a.used - b.used);
        total = entries.reduce((all, entry) => all + (entry.url === address ? bytes : entry.bytes), 0);
        for (const entry of entries) {
          if (total <= limit) break;
          if (entry.url === address) continue;
          total -= entry.bytes;
          evicted.push(entry.url);
          stores.kept.delete(entry.url);
        }
      }
      stores.settings.put({ name: "keptBytes", value: total });
      return evicted;
    });
    const cache = await caches.open(KEPT_CACHE);
    await Promise.all(gone.map((url) => cache.delete(url)));
  }

  /** Marks the kept response to `address` as used now, so that it is given up after those read longer ago. */
  function touchKept(address) {
    return transaction(["kept"], "readwrite", async (stores) => {
      const entry = await settled(stores.kept.get(address));
      if (entry) stores.kept.put({ ...entry, used: Date.now() });
    });
  }

  /** Gives up every kept response (the viewer's own files stay). */
  async function forgetKept() {
    await transaction(["kept", "settings"], "readwrite", (stores) => {
      stores.kept.clear();
      return settled(stores.settings.put({ name: "keptBytes", value: 0 }));
    });
    await caches.delete(KEPT_CACHE);
  }

  /** Forgets an offline change the server refused: the reader keeps what the server has. */
  function dropConflict(conflict) {
    return transaction(["conflicts"], "readwrite", (stores) => settled(stores.conflicts.delete(conflict.operationID)));
  }

  /** How many bytes the kept responses take, and how many there are. */
  function keptUsage() {
    return transaction(["kept", "settings"], "readonly", async (stores) => {
      const [sum, count] = await Promise.all([settled(stores.settings.get("keptBytes")), settled(stores.kept.count())]);
      return { bytes: sum ? sum.value : 0, count };
    });
  }

  self.offlineStore = Object.freeze({ KEPT_CACHE, SHELL_CACHE, DEFAULT_BUDGET, BUDGETS, transaction, settled, all, budget, setBudget, noteKept, touchKept, forgetKept, keptUsage, dropConflict });
})();
