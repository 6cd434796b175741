// A small stand-in for the browser, enough to run one of the app's classic scripts
// (scorekeeper/static/*.js) in node's vm and watch what it does to the page.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const STATIC = fileURLToPath(new URL("../../scorekeeper/static/", import.meta.url));

export class FakeElement {
  constructor(tag, attrs = {}, text = "") {
    this.tagName = tag.toUpperCase();
    this.attrs = { ...attrs };
    this.textContent = text;
    this.children = [];
    this.listeners = {};
    this.classList = new Set();
    this.classList.add = Set.prototype.add.bind(this.classList);
  }
  getAttribute(name) { return name in this.attrs ? this.attrs[name] : null; }
  setAttribute(name, value) { this.attrs[name] = String(value); }
  appendChild(child) { this.children.push(child); return child; }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  closest(selector) { return this.matches && this.matches(selector) ? this : null; }
}

/** A page: ``elements`` maps a selector, exactly as the script asks for it, to elements. */
export function fakePage({ elements = {}, cookie = "", readyState = "complete", lang = "en",
  navigator = {}, protocol = "http:", zone = "Europe/Berlin" } = {}) {
  const html = new FakeElement("html", { lang });
  const head = new FakeElement("head");
  const listeners = {};
  const timers = [];
  const document = {
    documentElement: Object.assign(html, { lang }),
    head,
    readyState,
    cookie,
    title: "Page",
    querySelectorAll: (selector) => elements[selector] || [],
    createElement: (tag) => new FakeElement(tag),
    addEventListener: (type, fn) => { (listeners[type] ||= []).push(fn); },
  };
  const window = {
    addEventListener: (type, fn) => { (listeners["window:" + type] ||= []).push(fn); },
    performance: { marks: [], mark(name) { this.marks.push(name); } },
  };
  const RealDTF = Intl.DateTimeFormat;
  const IntlStub = {
    ...Intl,
    DateTimeFormat: function (locale, options) {
      if (!options) return { resolvedOptions: () => ({ timeZone: zone }) };
      return new RealDTF(locale, options);
    },
  };
  const context = vm.createContext({
    document, window, navigator, location: { protocol, href: protocol + "//table.test/games/x" },
    performance: window.performance, Intl: IntlStub, URL, Date, isNaN, Promise,
    setTimeout: (fn, ms) => { timers.push({ fn, ms }); return timers.length; },
  });
  return {
    document, window, listeners, timers, context,
    run(name) { vm.runInContext(readFileSync(STATIC + name, "utf8"), context, { filename: name }); },
    fire(type, event = {}) { (listeners[type] || []).forEach((fn) => fn(event)); },
  };
}
