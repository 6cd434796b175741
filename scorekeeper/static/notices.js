/* What a refused or lost htmx request tells the reader (polish task 1): a 429 (too many
   requests, with the wait), a 503 (database busy), any other error page, or no answer at all
   (htmx:sendError, htmx:timeout) shows one translated sentence in the form's message area
   ([data-notice]: next to the save button in the save bar, under the new-game form), else at
   the top of what the request would have replaced. The form stays as it was: nothing is
   swapped in. The server sends the sentence (templates/_notice.html or the error page's
   [data-notice-text]); without an answer the page's own words are used (<body
   data-notice-offline>). The next answer that arrives takes the sentence away again.
   Without this file htmx shows nothing, and the server's "HX-Reswap: none" still keeps the
   form as it was. */
(function () {
  "use strict";
  var d = document;

  /* The message area of the request's form, made at the top of its target if it has none. */
  function area(detail, make) {
    var elt = detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    var found = (form || elt) && (form || elt).querySelector("[data-notice]");
    var target = detail.target || elt;
    if (!found && target && target.querySelector) found = target.querySelector("[data-notice]");
    if (found || !make || !target || !target.isConnected) return found || null;
    found = d.createElement("p");
    found.setAttribute("data-notice", "");
    target.prepend(found);
    return found;
  }

  function show(detail, text) {
    var box = area(detail, true);
    if (!box) return;
    box.className = "flash flash-error notice";
    box.setAttribute("role", "alert");
    box.textContent = text;
    box.hidden = false;
    var active = d.activeElement;
    var typing = active && active.matches && active.matches("input, textarea") &&
      !active.matches("[type=radio], [type=checkbox]");
    /* While typing (the live preview) the page does not jump; after a tap it shows the note. */
    if (!typing && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
  }

  function clear(detail) {
    var box = area(detail, false);
    if (box && !box.hidden) {
      box.hidden = true;
      box.textContent = "";
    }
  }

  /* The sentence of an answer: the server's own, else the page's fallback for its status. */
  function sentence(xhr) {
    var text = "";
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (type.indexOf("text/html") === 0 && xhr.responseText) {
      var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var node = doc.querySelector("[data-notice-text]");
      text = node ? node.textContent.replace(/\s+/g, " ").trim() : "";
    }
    if (text) return text;
    var body = d.body.dataset;
    return (xhr.status >= 502 ? body.noticeOffline : body.noticeFailed) || "";
  }

  d.addEventListener("htmx:beforeSwap", function (e) {
    var detail = e.detail, xhr = detail.xhr;
    if (!xhr) return;
    if (xhr.status < 400) { clear(detail); return; }
    /* The form itself, sent back with its own notes (409, 422, the entry's 503): swapped in. */
    if (detail.shouldSwap && detail.swapOverride !== "none") return;
    detail.shouldSwap = false;
    show(detail, sentence(xhr));
  });

  function lost(e) {
    show(e.detail, d.body.dataset.noticeOffline || "");
  }
  d.addEventListener("htmx:sendError", lost);
  d.addEventListener("htmx:timeout", lost);
})();
