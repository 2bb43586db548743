// The service worker: every file of the app is cached on the first visit, then served from the
// cache (the app works offline). A new build has a new version: its files replace the old ones.
const VERSION = "__VERSION__";
const FILES = __FILES__;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      // an older build's files go, and its Pyodide snapshot (the worker's `${VERSION}-pyodide`)
      .then((names) => Promise.all(names.filter((name) => name !== VERSION && name !== `${VERSION}-pyodide`)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// the cache is opened once per start of this worker, not once per request (a visit asks for ~15 files)
let opened = null;

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  opened = opened || caches.open(VERSION);
  event.respondWith(opened.then((cache) => cache.match(event.request, { ignoreSearch: true }), () => undefined)
    .then((hit) => hit || fetch(event.request)));  // not in the cache (or no cache): the network
});
