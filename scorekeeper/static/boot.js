/* Starts the page's scripts without holding up its first view: a phone on a slow
   line sees and can use the page (every form works without JavaScript) while htmx and the
   page's own scripts arrive. They are fetched early (<link rel="preload" data-run> in the
   head, in the order to run) and run, in that order, once the document is complete: htmx then
   starts at once, on the page as it is. When all have run, <html data-ready="1"> says so (and the
   performance mark "scorekeeper-ready", which the benchmark reads). What the first view can do
   without (the game pages' wake lock) is named by <link rel="prefetch" data-run-later>: the
   browser fetches it when idle, and it runs after the rest. */
(function () {
  "use strict";
  var d = document;

  /* The phone's time zone, so that the server writes dates as the table lives them (a game
     begun at 9 pm in New York is that evening's, not the next day's as in UTC): kept in the
     "tz" cookie for a year and written again only when it changes (web/words/i18n.py,
     reader_timezone). */
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && (" " + d.cookie + ";").indexOf(" tz=" + zone + ";") === -1) {
      d.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax" +
        (location.protocol === "https:" ? "; secure" : "");
      /* This page was written before the server knew the zone: its days (<time data-day>,
         web/words/i18n.py, dated) are written again in the phone's own. */
      var redate = function () {
        var days = new Intl.DateTimeFormat(d.documentElement.lang || "en",
          { dateStyle: "long", timeZone: zone });
        d.querySelectorAll("time[data-day][datetime]").forEach(function (t) {
          var when = new Date(t.getAttribute("datetime"));
          if (!isNaN(when)) t.textContent = days.format(when);
        });
      };
      if (d.readyState === "loading") d.addEventListener("DOMContentLoaded", redate);
      else redate();
    }
  } catch (e) { /* a browser without Intl: the server's zone */ }

  function run() {
    var links = d.querySelectorAll('link[rel="preload"][as="script"][data-run]');
    var left = links.length;
    function ready() {
      d.documentElement.setAttribute("data-ready", "1");
      if (window.performance && performance.mark) performance.mark("scorekeeper-ready");
      d.querySelectorAll('link[rel="prefetch"][as="script"][data-run-later]').forEach(function (l) {
        var script = d.createElement("script");
        script.src = l.href;
        script.async = false;  /* in order too: a page's later scripts may build on each other */
        d.head.appendChild(script);
      });
    }
    if (!left) { ready(); return; }
    function done() {
      left -= 1;
      if (left === 0) ready();
    }
    for (var i = 0; i < links.length; i++) {
      var script = d.createElement("script");
      script.src = links[i].href;
      script.async = false;  /* in order: htmx first, then what builds on it */
      script.onload = done;
      script.onerror = done;
      d.head.appendChild(script);
    }
  }

  if (d.readyState === "complete") {
    run();
  } else {
    window.addEventListener("load", run);
  }
})();
