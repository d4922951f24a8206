// The outbox as the service worker can read it (background sync). A service worker
// has no localStorage, so js/outbox.js mirrors its outbox here, in IndexedDB: "list" is the outbox,
// "sent" the ids of rounds the worker sent while no page of the app was open (a page drops
// those from its own outbox when it next opens); js/seat.js does the same for a player's own
// hand with "hands" and "sent-hands". Loaded by the pages and by the worker.
// A classic script, not a module of js/: the worker loads it with importScripts, which a
// classic worker has and a module worker has not (and a module service worker is not yet in
// every phone's browser); the pages share the one file, and its cached copy.
(function (scope) {
  "use strict";

  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = scope.indexedDB.open("scorekeeper", 1);
        request.onupgradeneeded = function () { request.result.createObjectStore("outbox"); };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { opened = null; reject(request.error); };
      });
    }
    return opened;
  }

  function run(mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var tx = base.transaction("outbox", mode), result;
        work(tx.objectStore("outbox"), function (value) { result = value; });
        tx.oncomplete = function () { resolve(result); };
        tx.onerror = tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function read(key) {
    return run("readonly", function (store, done) {
      store.get(key).onsuccess = function (e) { done(e.target.result); };
    });
  }

  function write(key, value) {
    return run("readwrite", function (store) { store.put(value, key); });
  }

  // Read a value and change it in one transaction (the worker and a page may both write).
  function change(key, how) {
    return run("readwrite", function (store, done) {
      store.get(key).onsuccess = function (e) {
        var value = how(e.target.result);
        store.put(value, key);
        done(value);
      };
    });
  }

  scope.OutboxDB = { read: read, write: write, change: change, works: !!scope.indexedDB };
})(self);
