/* Sharing the view link and the score sheet: the phone's share sheet (Web Share
   API) where there is one, else the link is copied and the button says so. Without this file
   the links themselves are on the page. */
(function () {
  "use strict";
  var d = document;
  if (!navigator.share && !(navigator.clipboard && navigator.clipboard.writeText)) return;
  d.documentElement.classList.add("js");

  d.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-share-url]");
    if (!button) return;
    var url = new URL(button.getAttribute("data-share-url"), location.href).href;
    var title = button.getAttribute("data-share-title") || d.title;
    if (navigator.share) {
      navigator.share({ title: title, url: url }).catch(function () { /* cancelled */ });
      return;
    }
    navigator.clipboard.writeText(url).then(function () {
      var label = button.textContent;
      button.textContent = button.getAttribute("data-copied");
      setTimeout(function () { button.textContent = label; }, 2500);
    });
  });
})();
