/* Live updates (docs/live-updates.md): a page part marked data-live="<events URL>" follows the
   server's event stream, and each "change" event makes htmx fetch the part again (its
   hx-trigger names "live:change"; the server answers 204 when the part is current).
   While the stream is open, the part's own polling ("every Ns") is skipped but for one poll a
   minute; when the stream drops, the polling carries on as before and the browser reconnects
   by itself (EventSource). A stream the server refused (too many from this phone, or the
   server full: 429/503) is tried again after a minute. Same origin only (CSP connect-src). */
(function () {
  "use strict";
  var d = document;
  if (!window.EventSource || !window.htmx) return;
  var SAFETY = 60000;  /* ms: a poll now and then even while the stream is open */

  function follow(first) {
    var id = first.id;
    var url = first.getAttribute("data-live");
    var since = first.getAttribute("data-live-since");
    var source = null;
    var open = false;
    var opened = false;
    var refreshed = Date.now();

    /* A change told while the part is being fetched is fetched again once that answer is in.
       htmx's own queue (hx-sync "queue last") cannot do it: the answer replaces the part
       (outerHTML), and htmx drops a request queued on an element no longer in the page, so
       the last of two quick changes (the second side's part saving the hand) was lost until
       the minute's safety poll. */
    var fetching = null;  /* the part's fetch in flight (its XMLHttpRequest) */
    var fetched = null;  /* the part that fetch belongs to */
    var started = 0;
    var again = false;
    var waiting = false;  /* a fetch again once the new part is set up */

    function part() { return d.getElementById(id); }
    function refresh() {
      var el = part();
      if (!el) return;
      refreshed = Date.now();
      if (fetching && Date.now() - started < 20000) { again = true; return; }
      htmx.trigger(el, "live:change");
    }
    d.addEventListener("htmx:beforeRequest", function (event) {
      var detail = event.detail || {};
      if (detail.elt && detail.elt === part()) {
        fetching = detail.xhr || true;
        fetched = detail.elt;
        started = Date.now();
      }
    });
    /* told on the part, or (the part replaced by then) on the nearest element still in the
       page: recognised by its request */
    d.addEventListener("htmx:afterRequest", function (event) {
      if (!fetching || (event.detail || {}).xhr !== fetching) return;
      fetching = null;
      if (!again) return;
      again = false;
      /* unchanged (204): at once; replaced: once htmx has set up the new part (it does so
         when the swap settles) */
      if (part() === fetched) refresh();
      else waiting = true;
    });
    d.addEventListener("htmx:load", function (event) {
      if (!waiting || !event.target || event.target.id !== id) return;
      waiting = false;
      refresh();
    });
    function connect() {
      source = new EventSource(url + (since ? (url.indexOf("?") < 0 ? "?" : "&") + "since=" + encodeURIComponent(since) : ""));
      source.addEventListener("open", function () {
        open = true;
        d.documentElement.setAttribute("data-live", "open");
        /* anything that changed while the stream was down (a game's stream itself sends
           what came after ``since``) */
        if (opened) refresh();
        opened = true;
      });
      source.addEventListener("change", function (event) {
        if (event.lastEventId) since = event.lastEventId;
        /* what the page last heard (read by the browser tests) */
        d.documentElement.setAttribute("data-live-heard", event.lastEventId || "");
        refresh();
      });
      source.addEventListener("gone", function () {
        source.close();
        open = false;
        d.documentElement.setAttribute("data-live", "closed");
      });
      source.addEventListener("error", function () {
        open = false;
        d.documentElement.setAttribute("data-live", "closed");
        if (source.readyState === EventSource.CLOSED) {
          /* refused or not found: polling meanwhile, a new try later */
          setTimeout(connect, SAFETY * (1 + Math.random()));
        }
      });
    }

    /* the part's polling waits while the stream tells of every change */
    d.addEventListener("htmx:confirm", function (event) {
      var detail = event.detail || {};
      if (!open || detail.elt !== part() || detail.triggeringEvent) return;
      if (Date.now() - refreshed < SAFETY) event.preventDefault();
      else refreshed = Date.now();
    });
    /* what the reader opened in the part (statistics, a hand's details) stays open */
    var opened_details = null;
    d.addEventListener("htmx:beforeSwap", function (event) {
      if (event.detail.elt !== part()) return;
      opened_details = [];
      part().querySelectorAll("details").forEach(function (el, i) {
        if (el.open) opened_details.push(i);
      });
    });
    d.addEventListener("htmx:afterSettle", function () {
      var el = part();
      if (!el || !opened_details) return;
      var all = el.querySelectorAll("details");
      opened_details.forEach(function (i) { if (all[i]) all[i].open = true; });
      opened_details = null;
    });
    window.addEventListener("pagehide", function () { if (source) source.close(); open = false; });
    window.addEventListener("pageshow", function (event) { if (event.persisted) connect(); });
    connect();
  }

  d.querySelectorAll("[data-live][id]").forEach(follow);
})();
