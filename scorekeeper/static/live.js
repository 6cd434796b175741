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

    function part() { return d.getElementById(id); }
    function refresh() {
      var el = part();
      if (!el) return;
      refreshed = Date.now();
      htmx.trigger(el, "live:change");
    }
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
