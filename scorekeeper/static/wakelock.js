/* Keeps the phone's screen on while a game is open (the Screen Wake Lock API, where the
   browser has it): a table enters a hand every few minutes, and a dark screen costs an unlock
   each time. The lock ends by itself when the page is hidden; it is asked for again when the
   page shows. <html data-wake-lock> says how it went ("on", "off" when refused, "none" when
   the browser has no such thing). */
(function () {
  "use strict";
  var d = document, root = d.documentElement, lock = null;

  if (!("wakeLock" in navigator)) {
    root.setAttribute("data-wake-lock", "none");
    return;
  }

  function ask() {
    if (lock || d.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      root.setAttribute("data-wake-lock", "on");
      sentinel.addEventListener("release", function () {
        lock = null;
        root.setAttribute("data-wake-lock", "off");
      });
    }, function () {
      /* refused (battery saver, no permission): the screen sleeps as usual */
      root.setAttribute("data-wake-lock", "off");
    });
  }

  d.addEventListener("visibilitychange", ask);
  ask();
})();
