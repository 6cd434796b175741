/* The theme's search panel is a dialog without a name: screen readers announce it as "Search"
   (axe-core: aria-dialog-name; tests/e2e/test_accessibility_browser.py). */
document.querySelectorAll('.md-search[role="dialog"]:not([aria-label])').forEach(function (el) {
  el.setAttribute("aria-label", "Search");
});
