/* The director's proposed seating: tap one name, then another, and the two swap places (the
   swap form below the tables is filled and sent). Tapping the first name again lets it go.
   Without this file the form's two lists do the same. */
(function () {
  "use strict";
  var d = document;
  var form = d.getElementById("swap");
  if (!form) return;
  var first = null;

  d.addEventListener("click", function (e) {
    var seat = e.target.closest && e.target.closest("button.seat[data-participant]");
    if (!seat) return;
    if (first === seat) {
      seat.setAttribute("aria-pressed", "false");
      first = null;
      return;
    }
    if (!first) {
      first = seat;
      seat.setAttribute("aria-pressed", "true");
      return;
    }
    form.elements.a.value = first.getAttribute("data-participant");
    form.elements.b.value = seat.getAttribute("data-participant");
    seat.setAttribute("aria-pressed", "true");
    form.submit();
  });
})();
