// static/boot.js: the page's scripts run in order after the load event, <html data-ready>
// says when, and the phone's time zone is remembered and its days written again.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeElement, fakePage } from "./harness.mjs";

const PRELOAD = 'link[rel="preload"][as="script"][data-run]';
const LATER = 'link[rel="prefetch"][as="script"][data-run-later]';

test("scripts run in their order and the page says when all have run", () => {
  const links = ["/static/htmx.js", "/static/games.js"].map((href) => ({ href }));
  const later = [{ href: "/static/wakelock.js" }];
  const page = fakePage({ elements: { [PRELOAD]: links, [LATER]: later }, cookie: "tz=Europe/Berlin" });
  page.run("boot.js");
  const added = page.document.head.children;
  assert.deepEqual(added.map((s) => s.src), ["/static/htmx.js", "/static/games.js"]);
  assert.ok(added.every((s) => s.async === false));
  assert.equal(page.document.documentElement.getAttribute("data-ready"), null);
  added[0].onload();
  assert.equal(page.document.documentElement.getAttribute("data-ready"), null);
  added[1].onerror(); // a script that failed still lets the page be ready
  assert.equal(page.document.documentElement.getAttribute("data-ready"), "1");
  assert.deepEqual(page.window.performance.marks, ["scorekeeper-ready"]);
  assert.equal(page.document.head.children.at(-1).src, "/static/wakelock.js");
});

test("before the load event nothing runs", () => {
  const page = fakePage({ readyState: "interactive", elements: { [PRELOAD]: [{ href: "/a.js" }] },
    cookie: "tz=Europe/Berlin" });
  page.run("boot.js");
  assert.equal(page.document.head.children.length, 0);
  page.fire("window:load");
  assert.equal(page.document.head.children.length, 1);
});

test("a new time zone is remembered and the page's days are written in it", () => {
  const day = new FakeElement("time", { "data-day": "", datetime: "2026-11-26T23:30:00Z" }, "26. November 2026");
  const page = fakePage({ zone: "Pacific/Kiritimati", lang: "de", cookie: "lang=de",
    elements: { "time[data-day][datetime]": [day] } });
  page.run("boot.js");
  assert.match(page.document.cookie, /^tz=Pacific\/Kiritimati; path=\/; max-age=31536000; samesite=lax$/);
  assert.equal(day.textContent, "27. November 2026"); // UTC+14: already the next day
});

test("a known zone is left alone, and https cookies are secure", () => {
  const day = new FakeElement("time", { "data-day": "", datetime: "2026-11-26T23:30:00Z" }, "as written");
  const known = fakePage({ cookie: "a=1; tz=Europe/Berlin", elements: { "time[data-day][datetime]": [day] } });
  known.run("boot.js");
  assert.equal(known.document.cookie, "a=1; tz=Europe/Berlin");
  assert.equal(day.textContent, "as written");
  const secure = fakePage({ protocol: "https:", zone: "Europe/Warsaw" });
  secure.run("boot.js");
  assert.match(secure.document.cookie, /; secure$/);
});
