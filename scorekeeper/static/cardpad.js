/* What the entry pages share (Canasta hands, 3 ist 50 games and its referee question):
   - the card pad: it writes into the card field in use, shows how many of each card that
     field holds (typed cards too, "666" is three sixes), takes the last card back, moves on
     with "Next" and Enter, counts a card that belongs in a count field (a Canasta side's red
     threes) into that field, and switches to the phone's keyboard (scorekeeperCardPad);
   - drafts: what was typed survives a reload in this tab (scorekeeperDraft).
   Each page's script passes what differs. Everything works without JavaScript: the fields
   take typed cards, and a form post keeps what was typed. */
(function () {
  "use strict";
  var d = document;

  function tokens(text) { return text.split(/[\s,;]+/).filter(Boolean); }
  /* A tap is a finished edit, not typing: "change" asks for the preview at once (typing waits
     for a pause, "input changed delay:…"). */
  function fire(el) { el.dispatchEvent(new Event("change", { bubbles: true })); }
  /* Shown, and not folded away in a closed <details> (whose content keeps its layout box). */
  function visible(f) {
    if (f.offsetParent === null) return false;
    var folded = f.closest && f.closest("details:not([open])");
    return !folded || folded.querySelector("summary").contains(f);
  }

  /* The cards of a field's text as ranks (A K Q J 10 9 … 4 2 X 3r 3b), read the way the rules
     engine reads card notation (docs/api.md §2, rules/cards.py): "666", "KdKd", "B" and "W"
     for a jack, "D" for a queen, "3♥". What cannot be read counts as "?". */
  var TOKEN = /^(?:(JOKER|JK|X)|(10|T)|(3[HDR\u2665\u2666\u2661\u2662])|(3[SCB\u2660\u2663\u2664\u2667])|(3)|([2-9])|([AKQJDBW]))/i;
  var SUITED = /^(?:(?:JOKER|JK|10|[2-9TAKQJDBWX])[HDSC\u2665\u2666\u2660\u2663\u2661\u2662\u2664\u2667])+$/i;
  var SUITS = "\u2665\u2666\u2660\u2663\u2661\u2662\u2664\u2667hHsScC";
  var FACE = { A: "A", K: "K", Q: "Q", J: "J", D: "Q", B: "J", W: "J" };
  function ranks(text) {
    var out = [];
    tokens(text).forEach(function (chunk) {
      var suited = SUITED.test(chunk), start = out.length, i = 0, m, c;
      while (i < chunk.length) {
        m = TOKEN.exec(chunk.slice(i));
        if (!m) { out.push("?"); return; }
        i += m[0].length;
        if (m[3]) { out.push("3r"); continue; }
        if (m[4]) { out.push("3b"); continue; }
        if (m[5]) { out.push("?"); continue; }
        out.push(m[1] ? "X" : m[2] ? "10" : m[6] ? m[6] : FACE[m[7].toUpperCase()]);
        c = chunk.charAt(i);
        if (c && SUITS.indexOf(c) >= 0) i++;
        else if ((c === "d" || c === "D") && (suited || (i === chunk.length - 1 && out.length - start === 1))) i++;
      }
    });
    return out;
  }

  /* options: form (selector of the entry form), label(field) (what the pad's title shows),
     next(field, pad) (move on from a card field; default: the next visible card field),
     liftSaveBar (keep the save bar above the open pad), keepOnButton (a tapped button outside
     the pad keeps it open), onKeyboard(on) (the keyboard toggle changed), score(field) (what
     the pad's header shows of the field's side: its running score, so the pad hides nothing
     that matters), countField(el) (el is a number field the pad fills now: the key of its
     data-pad-count rank adds one), countInto(field, rank) (the count field a key of that rank
     adds one to instead of writing the card into the card field), last() (Enter on the
     form's last field). */
  window.scorekeeperCardPad = function (options) {
    var active = null, keyboard = false;
    var pad = { tokens: tokens, fire: fire, visible: visible, ranks: ranks };

    function element() { return d.getElementById("pad"); }

    function isCount(f) { return !!(options.countField && f && options.countField(f)); }
    function padField(f) {
      return !!(f && f.classList && (f.classList.contains("cardfield") || isCount(f)));
    }
    function number(f) { return parseInt(f.value, 10) || 0; }

    function counts() {
      var p = element();
      if (!p || !active) return;
      var count = isCount(active), byRank = !!p.querySelector("[data-rank]");
      var list = count ? [] : byRank ? ranks(active.value) : tokens(active.value.toUpperCase());
      p.querySelectorAll("[data-card]").forEach(function (b) {
        var rank = b.getAttribute("data-rank"), n = 0;
        var into = rank && options.countInto ? options.countInto(active, rank) : null;
        if (count) {
          n = rank === active.getAttribute("data-pad-count") ? number(active) : 0;
          b.disabled = rank !== active.getAttribute("data-pad-count");
        } else if (into) {
          n = number(into);
          b.disabled = false;
        } else {
          var t = byRank ? rank : b.getAttribute("data-card").toUpperCase();
          list.forEach(function (x) { if (x === t) n++; });
          b.disabled = false;
        }
        b.querySelector(".cnt").textContent = n ? n : "";
      });
      d.getElementById("pad-target").textContent =
        options.label(active) + (count ? "" : " (" + list.length + ")");
      var score = d.getElementById("pad-score");
      if (score) score.textContent = options.score ? options.score(active) : "";
    }

    function lift(height) {
      if (!options.liftSaveBar) return;
      var bar = d.querySelector(".savebar");
      if (bar) bar.style.bottom = height ? height + "px" : "";
    }
    /* The pad grows and shrinks while open (its head's text, a turned phone): the save bar
       stays on top of it, never under it. */
    var watched = null;
    function follow(p) {
      if (watched === p || !options.liftSaveBar || !window.ResizeObserver) return;
      watched = p;
      new ResizeObserver(function () {
        if (!p.hidden) { lift(p.offsetHeight); keepInView(); }
      }).observe(p);
    }
    /* The field in use stays above the save bar when the page moves under it: the live
       preview written above it, the pad growing. */
    function keepInView() {
      var p = element();
      if (!active || !p || p.hidden) return;
      var bar = options.liftSaveBar ? d.querySelector(".savebar") : null;
      var bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight - p.offsetHeight;
      var r = active.getBoundingClientRect();
      if (r.bottom > bottom) window.scrollBy(0, r.bottom - bottom + 8);
    }
    d.addEventListener("htmx:afterSettle", keepInView);
    /* (the phone's own preview draws in place and moves nothing above the field) */

    function setActive(field) {
      if (active && active !== field) active.classList.remove("active");
      active = field;
      field.classList.add("active");
      var p = element();
      if (!p) return;
      p.hidden = false;
      d.body.classList.add("pad-open");
      counts();
      /* after counts(): the pad's head (the score, a title on two lines) sets its height */
      lift(p.offsetHeight);
      follow(p);
      /* The field, and room under it for its note (the live preview writes it there), must
         show above the pad and the save bar lifted onto it. */
      var bar = options.liftSaveBar ? d.querySelector(".savebar") : null;
      var bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight - p.offsetHeight;
      var r = field.getBoundingClientRect();
      if (r.bottom + 48 > bottom || r.top < 60) {
        field.scrollIntoView({ block: "center" });
      }
    }

    function close() {
      var p = element();
      if (p) p.hidden = true;
      d.body.classList.remove("pad-open");
      lift(0);
      if (active) active.classList.remove("active");
      active = null;
    }

    function prepare(root) {
      (root || d).querySelectorAll(".cardfield").forEach(function (f) {
        f.setAttribute("inputmode", keyboard ? "text" : "none");
      });
      /* A count field is typed on the phone's number keys unless the pad fills it now. */
      (root || d).querySelectorAll("[data-pad-count]").forEach(function (f) {
        f.setAttribute("inputmode", !keyboard && isCount(f) ? "none" : "numeric");
      });
      if (active && !d.body.contains(active)) close();
    }

    function goTo(field) { field.focus(); setActive(field); }

    function nextVisible(field) {
      var all = Array.prototype.filter.call(d.querySelectorAll(".cardfield"), visible);
      var target = all[all.indexOf(field) + 1];
      if (target) goTo(target); else close();
    }

    function next(field) { (options.next || nextVisible)(field, pad); }

    pad.setActive = setActive;
    pad.prepare = prepare;
    pad.isField = padField;
    pad.close = close;
    pad.goTo = goTo;
    pad.counts = counts;
    pad.active = function () { return active; };

    var hush = false;  /* focus given back to the field by the pad: the pad stays closed */
    d.addEventListener("focusin", function (e) {
      var t = e.target;
      if (padField(t)) { if (!hush) setActive(t); }
      /* A tapped button may keep the pad: closing it would move the page under the finger. */
      else if (!t.closest("#pad") && !(options.keepOnButton && t.tagName === "BUTTON")) close();
    });

    /* Pad buttons must not take the focus (and the caret) away from the field. */
    ["pointerdown", "mousedown"].forEach(function (type) {
      d.addEventListener(type, function (e) {
        if (e.target.closest && e.target.closest("#pad button")) e.preventDefault();
      });
    });

    d.addEventListener("click", function (e) {
      var b = e.target.closest("#pad button");
      if (!b) return;
      var action = b.getAttribute("data-pad"), card = b.getAttribute("data-card");
      if (action === "done") {
        var back = active, inPad = b === d.activeElement;
        close();
        /* pressed from the keyboard: the focus goes back to the field, not to the page's top */
        if (inPad && back) { hush = true; back.focus(); hush = false; }
        return;
      }
      if (action === "kbd") {
        keyboard = !keyboard;
        d.body.classList.toggle("kbd", keyboard);
        prepare();
        if (active) { var f = active; f.blur(); f.focus(); }
        return;
      }
      if (!active) return;
      var rank = b.getAttribute("data-rank");
      var into = card && rank && options.countInto ? options.countInto(active, rank) : null;
      if (isCount(active)) {
        if (card && rank !== active.getAttribute("data-pad-count")) return;
        if (card || action === "undo") {
          var n = Math.max(0, number(active) + (card ? 1 : -1));
          active.value = n ? String(n) : "";
          fire(active);
        }
      }
      if (isCount(active) && action !== "next") {
        counts();
        return;
      }
      if (into) {
        into.value = String(number(into) + 1);
        fire(into);
      } else if (card) {
        active.value = (active.value.replace(/\s+$/, "") + " " + card).replace(/^\s+/, "");
        fire(active);
      } else if (action === "undo") {
        var list = tokens(active.value);
        list.pop();
        active.value = list.join(" ");
        fire(active);
      } else if (action === "next") {
        next(active);
        return;
      }
      counts();
    });

    ["input", "change"].forEach(function (type) {
      d.addEventListener(type, function (e) { if (e.target === active) counts(); });
    });

    /* Enter moves on instead of saving a half-entered form. */
    d.addEventListener("keydown", function (e) {
      var t = e.target;
      if (e.key !== "Enter" || t.tagName !== "INPUT" || !t.closest(options.form)) return;
      e.preventDefault();
      if (padField(t)) { next(t); return; }
      var all = Array.prototype.filter.call(d.querySelectorAll(
        options.form + " input:not([type=hidden]):not([type=radio]):not([type=checkbox])"),
        visible);
      var n = all[all.indexOf(t) + 1];
      if (n) n.focus(); else if (options.last) options.last();
    });

    /* By keyboard alone: from a card field, ArrowDown goes into the pad (Tab goes on to the
       next field, as ever); in the pad the arrows move between the keys as they are laid out,
       Enter or Space presses one, ArrowUp from the top row or Escape goes back to the field,
       and "Next" moves on to the next field. Escape in the field closes the pad. */
    function keys(p) {
      return Array.prototype.filter.call(p.querySelectorAll("button"), function (b) {
        return !b.disabled && b.offsetParent !== null;
      });
    }
    function near(from, list, down) {
      var r = from.getBoundingClientRect(), x = r.left + r.width / 2, best = null, score = 0;
      list.forEach(function (b) {
        var q = b.getBoundingClientRect();
        var dy = down ? q.top - r.bottom : r.top - q.bottom;
        if (dy < -2) return;
        var s = Math.round(dy) * 10000 + Math.abs(q.left + q.width / 2 - x);
        if (best === null || s < score) { best = b; score = s; }
      });
      return best;
    }
    d.addEventListener("keydown", function (e) {
      var p = element(), t = e.target;
      if (!p || p.hidden || !active || e.altKey || e.ctrlKey || e.metaKey) return;
      if (t === active) {
        if (e.key === "ArrowDown") {
          var first = keys(p).filter(function (b) { return b.closest(".cardpad"); })[0];
          if (first) { e.preventDefault(); first.focus(); }
        } else if (e.key === "Escape") {
          e.preventDefault();
          close();
        }
        return;
      }
      if (!t.closest || !t.closest("#pad")) return;
      if (e.key === "Escape") { e.preventDefault(); hush = true; active.focus(); hush = false; return; }
      var all = keys(p), i = all.indexOf(t), to;
      if (i < 0) return;
      if (e.key === "ArrowRight") to = all[i + 1];
      else if (e.key === "ArrowLeft") to = all[i - 1];
      else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        to = near(t, all.filter(function (b) { return b !== t; }), e.key === "ArrowDown");
        if (!to && e.key === "ArrowUp") to = active;
      } else return;
      e.preventDefault();
      if (to === active) { hush = true; active.focus(); hush = false; } else if (to) to.focus();
    });

    d.addEventListener("htmx:load", function (e) { prepare(e.detail.elt); });
    /* A new preview brings the side's new score: the pad's header shows it. */
    d.addEventListener("htmx:afterSettle", function () { if (active) counts(); });
    prepare();
    return pad;
  };
  /* A draft of an entry form in this tab (sessionStorage): a reload, a phone that dropped the
     page, or "back" and "Enter" again bring back what was typed. The key holds the game's
     version, so a draft never comes back once the game has changed (the entry was saved).
     options: form and fields (ids: the form, the element whose change asks for the preview),
     structure (a radio whose value makes the server redraw the form: filled in first, the
     rest after the redraw), grow(name, wanted) (make room for more values of a name). */
  window.scorekeeperDraft = function (options) {
    var store = null, pending = null;
    try { store = window.sessionStorage; } catch (err) { store = null; }
    if (!store) return;

    function form() { return d.getElementById(options.form); }

    function key(f) {
      var v = f.querySelector("input[name=version]");
      return "scorekeeper-draft:" + f.getAttribute("action") + ":" + (v ? v.value : "");
    }

    function collect(f) {
      var out = [];
      f.querySelectorAll("input[name]").forEach(function (i) {
        if (i.type === "hidden" || i.name === "csrf_token") return;
        if (i.type === "radio") { if (i.checked) out.push([i.name, i.value, "radio"]); }
        else if (i.type === "checkbox") out.push([i.name, i.value, i.checked ? "on" : "off"]);
        else out.push([i.name, i.value, "text"]);
      });
      return out;
    }

    function fill(f, draft) {
      var texts = {};
      draft.forEach(function (entry) {
        var name = entry[0], value = entry[1], kind = entry[2];
        if (kind === "text") { (texts[name] = texts[name] || []).push(value); return; }
        f.querySelectorAll('input[name="' + name + '"]').forEach(function (i) {
          if (kind === "radio" && i.value === value) i.checked = true;
          if (i.type === "checkbox" && i.value === value) i.checked = kind === "on";
        });
      });
      Object.keys(texts).forEach(function (name) {
        var values = texts[name];
        if (options.grow) options.grow(name, values.length);
        f.querySelectorAll('input[name="' + name + '"]').forEach(function (i, n) {
          if (n < values.length) i.value = values[n];
        });
      });
    }

    function save() {
      var f = form();
      if (!f) return;
      try { store.setItem(key(f), JSON.stringify(collect(f))); } catch (err) { /* full */ }
    }

    function restore(draft) {
      var f = form();
      if (!f) return;
      if (!draft) {
        var raw = store.getItem(key(f));
        if (!raw || JSON.stringify(collect(f)) === raw) return;
        try { draft = JSON.parse(raw); } catch (err) { return; }
        if (!Array.isArray(draft)) return;
      }
      if (options.structure) {
        var wanted = draft.filter(function (e) { return e[0] === options.structure; })[0];
        var now = f.querySelector('input[name="' + options.structure + '"]:checked');
        if (wanted && now && now.value !== wanted[1]) {
          pending = draft;
          fill(f, [wanted]);
          f.querySelector('input[name="' + options.structure + '"]:checked')
            .dispatchEvent(new Event("change", { bubbles: true }));
          return;
        }
      }
      fill(f, draft);
      var note = f.querySelector("[data-draft-note]");
      if (note) note.hidden = false;
      var fields = d.getElementById(options.fields);
      if (fields) fields.dispatchEvent(new Event("change", { bubbles: true }));
    }

    ["input", "change"].forEach(function (type) {
      d.addEventListener(type, function (e) {
        if (e.target.closest && e.target.closest("#" + options.form)) save();
      });
    });

    d.addEventListener("click", function (e) {
      if (!e.target.closest("[data-draft-discard]")) return;
      var f = form();
      if (f) store.removeItem(key(f));
      window.location.reload();
    });

    /* The server redrew the form for the structure radio: now the rest fits. */
    d.addEventListener("htmx:afterSwap", function () {
      if (!pending || !form()) return;
      var draft = pending;
      pending = null;
      restore(draft);
      save();
    });

    /* After htmx has set up the page, so that the restored entry gets its preview. boot.js runs
       htmx, then this script, once the page is complete (htmx starts at once then); should this
       script ever run earlier, wait for "load", which comes after htmx's DOMContentLoaded. */
    if (d.readyState === "complete") {
      setTimeout(function () { restore(); }, 0);
    } else {
      window.addEventListener("load", function () { setTimeout(function () { restore(); }, 0); });
    }
  };
})();
