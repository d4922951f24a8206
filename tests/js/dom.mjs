// A page for the phone's modules to run on in Node: linkedom's DOM of the given markup, made the
// globals a browser gives a script (document, window, Event ...), with a phone's navigator and
// the timers left to the test. Each test file runs in a process of its own (node --test), so
// the globals of one file's page never meet another's.
import { parseHTML } from "linkedom";

export function memoryStorage() {
  const items = new Map();
  return {
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => { items.set(key, String(value)); },
    removeItem: (key) => { items.delete(key); },
  };
}

// Timers run only when the test says, so that "later" is a step of the test, not a wait.
export function clock() {
  let next = 1;
  const timers = new Map();
  return {
    setTimeout(fn, ms) { timers.set(next, { fn, ms, every: false }); return next++; },
    setInterval(fn, ms) { timers.set(next, { fn, ms, every: true }); return next++; },
    clearTimeout(id) { timers.delete(id); },
    clearInterval(id) { timers.delete(id); },
    pending() { return [...timers.values()].map((t) => t.ms).sort((a, b) => a - b); },
    // Every timer due within ms runs once (an interval stays, a timeout goes).
    run(ms = Infinity) {
      [...timers.entries()].filter(([, t]) => t.ms <= ms).forEach(([id, t]) => {
        if (!t.every) { timers.delete(id); }
        t.fn();
      });
    },
  };
}

// Every request is held until the test answers it (or drops it, as a lost signal does).
export function network() {
  const sent = [];
  const fetch = (url, options = {}) => new Promise((resolve, reject) => {
    sent.push({
      url, options, fields: options.body ? new URLSearchParams(options.body) : null,
      answer: (status, body = "", headers = {}) => resolve({
        status, ok: status >= 200 && status < 300, text: () => Promise.resolve(body), json: () => Promise.resolve(JSON.parse(body)),
        headers: new Map(Object.entries(headers)),
      }),
      drop: () => reject(new TypeError("Failed to fetch")),
    });
  });
  return { sent, fetch };
}

export const settle = () => new Promise((resolve) => setImmediate(resolve));

// The browser's FormData of a form: its named, enabled fields, ticked boxes only (linkedom has
// none of its own).
export class FormData {
  constructor(form) {
    this.pairs = [];
    if (!form) { return; }
    form.querySelectorAll("input[name], select[name], textarea[name]").forEach((field) => {
      if (field.hasAttribute("disabled")) { return; }
      const type = (field.getAttribute("type") || "text").toLowerCase();
      if ((type === "checkbox" || type === "radio") && !field.checked) { return; }
      const value = field.value ?? field.getAttribute("value") ?? "";
      this.pairs.push([field.getAttribute("name"), type === "checkbox" && !field.hasAttribute("value") ? "on" : value]);
    });
  }
  append(name, value) { this.pairs.push([name, String(value)]); }
  forEach(fn) { this.pairs.forEach(([name, value]) => fn(value, name)); }
}

// linkedom's inputs have no "checked" of their own: here it is the attribute, and a radio ticked
// unticks the others of its name in its form, as in a browser.
function tickable(document) {
  const proto = Object.getPrototypeOf(document.createElement("input"));
  if (Object.getOwnPropertyDescriptor(proto, "checked")) { return; }
  Object.defineProperty(proto, "checked", {
    configurable: true,
    get() { return this.hasAttribute("checked"); },
    set(on) {
      if (!on) { this.removeAttribute("checked"); return; }
      if (this.getAttribute("type") === "radio") {
        const scope = this.closest("form") || this.ownerDocument;
        scope.querySelectorAll(`input[type=radio][name="${this.getAttribute("name")}"]`).forEach((r) => r.removeAttribute("checked"));
      }
      this.setAttribute("checked", "");
    },
  });
  for (const name of ["disabled"]) {
    if (Object.getOwnPropertyDescriptor(proto, name)) { continue; }
    Object.defineProperty(proto, name, {
      configurable: true,
      get() { return this.hasAttribute(name); },
      set(on) { if (on) { this.setAttribute(name, ""); } else { this.removeAttribute(name); } },
    });
  }
}

// A page of this markup, its globals set. Returns what the test drives: the window, the
// document, the timers, the network and the navigator (onLine: the phone's idea of its signal).
export function page(html, { online = true, storage = memoryStorage(), session = memoryStorage(), share, address = "/" } = {}) {
  const dom = parseHTML(html.includes("<html") ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);
  const { document, Event, CustomEvent, DOMParser } = dom;
  tickable(document);
  const time = clock(), net = network();
  const navigator = { onLine: online };
  if (share) { navigator.share = share; }
  const url = new URL(address, "http://table.lan");
  const location = { pathname: url.pathname, search: url.search, hash: url.hash, reloaded: 0, reload() { this.reloaded += 1; } };
  const history = {
    states: [],
    replaceState(state, title, where) { this.states.push(["replace", where]); Object.assign(location, { pathname: where, search: "", hash: "" }); },
    pushState(state, title, where) { this.states.push(["push", where]); location.pathname = where; },
  };
  const listeners = {};
  const window = {
    document, navigator, location, history, localStorage: storage, sessionStorage: session,
    fetch: net.fetch, setTimeout: time.setTimeout, clearTimeout: time.clearTimeout,
    setInterval: time.setInterval, clearInterval: time.clearInterval,
    innerHeight: 844, DOMParser, scrollTo() {},
    // A page's events bubble from the document to the window, as in a browser (linkedom's own
    // window); fire() below sends those that come from the browser itself (online, storage).
    addEventListener(type, fn) { (listeners[type] = listeners[type] || []).push(fn); dom.window.addEventListener(type, fn); },
  };
  const globals = {
    window, document, Event, CustomEvent, DOMParser, FormData, navigator, location, history,
    localStorage: storage, sessionStorage: session, fetch: net.fetch, setTimeout: time.setTimeout, clearTimeout: time.clearTimeout,
    setInterval: time.setInterval, clearInterval: time.clearInterval,
  };
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  // A window event (online, storage ...), as the browser fires it.
  const fire = (type, event = {}) => (listeners[type] || []).forEach((fn) => fn({ type, ...event }));
  return { window, document, time, net, navigator, location, history, storage, session, fire };
}

// An event as the person's own tap or typing makes it (isTrusted), bubbling from target.
export function trusted(target, type, extra = {}) {
  const event = new globalThis.Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(event, "isTrusted", { value: true });
  for (const [name, value] of Object.entries(extra)) { Object.defineProperty(event, name, { value }); }
  target.dispatchEvent(event);
  return event;
}
