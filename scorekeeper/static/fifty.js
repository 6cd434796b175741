/* 3 ist 50: the card pad (cardpad.js) writes into the active card field (a minus pile, the
   middle cards, a hand); "Next" moves to the next visible card field. What was typed into a
   game's entry survives a reload (scorekeeperDraft). */
(function () {
  "use strict";
  window.scorekeeperCardPad({
    form: "#entry-form",
    label: function (field) { return field.getAttribute("data-name") || ""; },
    liftSaveBar: true,
    keepOnButton: true
  });
  if (document.getElementById("entry-form")) {
    window.scorekeeperDraft({ form: "entry-form", fields: "entry-fields" });
  }
})();
