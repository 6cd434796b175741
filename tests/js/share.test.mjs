// static/share.js: the phone's share sheet where there is one, else the link is copied and the
// button says so for a moment.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeElement, fakePage } from "./harness.mjs";

function button() {
  const b = new FakeElement("button", { "data-share-url": "/view/abc", "data-share-title": "Anna & Ben",
    "data-copied": "Link kopiert" }, "Link teilen");
  b.matches = (selector) => selector === "[data-share-url]";
  return b;
}

test("the share sheet gets the whole address and the title", async () => {
  const shared = [];
  const page = fakePage({ navigator: { share: (what) => { shared.push(what); return Promise.resolve(); } } });
  page.run("share.js");
  page.fire("click", { target: button() });
  assert.deepEqual(shared.map((s) => ({ ...s })), [{ title: "Anna & Ben", url: "http://table.test/view/abc" }]);
  assert.ok(page.document.documentElement.classList.has("js"));
});

test("without a share sheet the link is copied and the button says so, then its label is back", async () => {
  const copied = [];
  const page = fakePage({ navigator: { clipboard: { writeText: (t) => { copied.push(t); return Promise.resolve(); } } } });
  page.run("share.js");
  const b = button();
  page.fire("click", { target: b });
  await Promise.resolve();
  await Promise.resolve();
  assert.deepEqual(copied, ["http://table.test/view/abc"]);
  assert.equal(b.textContent, "Link kopiert");
  assert.equal(page.timers.at(-1).ms, 2500);
  page.timers.at(-1).fn();
  assert.equal(b.textContent, "Link teilen");
});

test("with neither, the script does nothing and the plain link stays", () => {
  const page = fakePage({ navigator: {} });
  page.run("share.js");
  assert.equal(page.listeners.click, undefined);
  assert.ok(!page.document.documentElement.classList.has("js"));
});
