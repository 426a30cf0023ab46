/* Card faces: every element with data-card="Name" opens the card's face (hover, keyboard focus, tap).
   The faces come once per page from /api/tables/{id}/cards: every card of the table's sets, public
   knowledge that says nothing about where any card is. Plain ES2020, no build step. */
"use strict";

const CardFace = (() => {
  const { el } = M;
  const SVG = "http://www.w3.org/2000/svg";

  // ------------------------------------------------------------------ icons (16×16, drawn with currentColor)
  const ICONS = {
    monster:
      '<circle cx="8" cy="9.5" r="4.5"/><path d="M4.6 6.4 3 2.5l3.4 2.4M11.4 6.4 13 2.5 9.6 4.9M6.2 9h.1M9.8 9h.1M6 12h4"/>',
    curse: '<path d="M9 1.5 3.5 9H8l-1 5.5L12.5 7H8z"/>',
    item: '<path d="M13.5 2.5 6 10M13.5 2.5h-3M13.5 2.5v3M4 8l4 4M5.2 10.8 2.5 13.5"/>',
    one_shot:
      '<path d="M6.5 1.5h3M7 1.5v4L3.5 12a1.8 1.8 0 0 0 1.6 2.5h5.8a1.8 1.8 0 0 0 1.6-2.5L9 5.5v-4M4.8 10h6.4"/>',
    race: '<circle cx="8" cy="5" r="2.8"/><path d="M2.5 14.5c.7-3.2 2.9-5 5.5-5s4.8 1.8 5.5 5"/>',
    class: '<path d="M8 1.5 13.5 3.5v4c0 3.4-2.4 6-5.5 7-3.1-1-5.5-3.6-5.5-7v-4z"/>',
    enhancer: '<circle cx="8" cy="8" r="6.5"/><path d="M8 5v6M5 8h6"/>',
    special: '<path d="M8 1.5l1.9 4.1 4.5.5-3.4 3 1 4.4L8 11.2l-4 2.3 1-4.4-3.4-3 4.5-.5z"/>',
    go_up_a_level: '<path d="M8 14V2.5M3.5 7 8 2.5 12.5 7"/>',
    sidekick:
      '<circle cx="5.5" cy="5" r="2.2"/><circle cx="11" cy="6" r="1.8"/><path d="M1.5 14c.5-2.8 2-4.3 4-4.3s3.5 1.5 4 4.3M10 9.6c2 0 3.6 1.4 4 4"/>',
    item_enhancer: '<path d="M8 2v12M2 8h12M4 4l8 8M12 4l-8 8"/>',
    role: '<circle cx="8" cy="6" r="4"/><path d="M5.5 9.5 4.5 14.5 8 12.5l3.5 2-1-5"/>',
    proficiency: '<path d="M2 3.5c2-1 4-1 6 .5 2-1.5 4-1.5 6-.5v9.5c-2-1-4-1-6 .5-2-1.5-4-1.5-6-.5zM8 4v9.5"/>',
    house: '<path d="M3 14.5V2M3 2.5h9l-2 3 2 3H3"/>',
    steed: '<path d="M4 14V8a4 4 0 0 1 8 0v6M2.5 14h3M10.5 14h3"/>',
    headgear: '<path d="M2.5 11.5a5.5 5.5 0 0 1 11 0zM1.5 11.5h13M8 3v3"/>',
    armor: '<path d="M5 2 2.5 4v9.5h11V4L11 2c-.5 1.5-1.6 2.2-3 2.2S5.5 3.5 5 2z"/>',
    footgear: '<path d="M5 2v8.5L2.5 12v2h11v-1.5c0-1.5-1.5-2.2-3.5-2.5V2z"/>',
    hands:
      '<path d="M5 14.5C3.5 13.2 2 11 2 9l1-1 2 2V3.5a1 1 0 0 1 2 0V7 2.5a1 1 0 0 1 2 0V7 3.5a1 1 0 0 1 2 0V8 5a1 1 0 0 1 2 0v4.5c0 2.5-1.2 4-3 5z"/>',
    big: '<path d="M3 14.5h10l-1.5-8h-7zM6 6.5a2 2 0 1 1 4 0"/>',
  };
  ICONS.hireling = ICONS.sidekick;
  const ICON_WORDS = {
    monster: "Monster",
    curse: "Curse",
    item: "Item",
    one_shot: "One-shot",
    race: "Race",
    class: "Class",
    enhancer: "Monster Enhancer",
    special: "Special",
    go_up_a_level: "Go Up a Level",
    sidekick: "Sidekick",
    hireling: "Hireling",
    item_enhancer: "Item Enhancer",
    role: "Role",
    proficiency: "Proficiency",
    house: "House",
    steed: "Steed",
    headgear: "Headgear",
    armor: "Armor",
    footgear: "Footgear",
    hands: "Hands",
    big: "Big",
  };

  /** A small icon with a text alternative (its label, or the word for its key); null for an unknown key. */
  function icon(key, label, decorative) {
    if (!ICONS[key]) return null;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 16 16");
    svg.setAttribute("class", `cf-ico cf-ico-${key}`);
    if (decorative) svg.setAttribute("aria-hidden", "true"); // the same word is written beside it
    else {
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", label || ICON_WORDS[key] || key);
    }
    svg.setAttribute("focusable", "false");
    svg.innerHTML = ICONS[key]; // our own constant drawings, never data
    return svg;
  }

  // ------------------------------------------------------------------ the catalog
  let catalog = null; // Map: lower-case name -> face
  let nameRe = null;
  let loading = null;
  const waiting = [];

  function load(tableId) {
    if (loading || !tableId) return loading;
    loading = M.api(`/api/tables/${encodeURIComponent(tableId)}/cards`)
      .then((body) => {
        catalog = new Map(Object.entries(body || {}));
        const names = [...catalog.values()].map((f) => f.name).sort((a, b) => b.length - a.length);
        const esc = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
        // whole names only: no letter or digit may touch either end
        nameRe = esc.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${esc.join("|")})(?![\\p{L}\\p{N}])`, "gu") : null;
        for (const fn of waiting.splice(0)) fn();
      })
      .catch(() => {
        loading = null; // the faces stay off; a later call may try again
      });
    return loading;
  }

  function whenReady(fn) {
    if (catalog) fn();
    else waiting.push(fn);
  }

  const face = (name) => (catalog && name ? catalog.get(String(name).toLowerCase()) || null : null);
  const glance = (name) => {
    const f = face(name);
    return f ? f.glance || [] : [];
  };

  /** A name in running text that opens its face: in the Tab order when `tabbable`, else reached by the
      log's arrow keys (a long log would otherwise take hundreds of Tabs to cross). */
  function ref(name, text, tabbable) {
    return el(
      "span",
      {
        class: "card-ref",
        dataset: { card: name },
        tabindex: tabbable ? "0" : "-1",
        role: "button",
        "aria-haspopup": "dialog",
      },
      text || name
    );
  }

  /** Text with every card name of the catalog (longest first, whole words) made a card reference. */
  function linkify(text, tabbable) {
    const t = String(text);
    if (!nameRe) return [t];
    const out = [];
    let at = 0;
    nameRe.lastIndex = 0;
    for (const m of t.matchAll(nameRe)) {
      if (m.index > at) out.push(t.slice(at, m.index));
      out.push(ref(face(m[0]).name, m[0], tabbable));
      at = m.index + m[0].length;
    }
    if (at < t.length) out.push(t.slice(at));
    return out;
  }

  /** A hand tile's figures: "Lv 8"; "+3" and a slot with its icon. */
  function glanceNodes(name) {
    const f = face(name);
    if (!f || !(f.glance || []).length) return null;
    return el(
      "span",
      { class: "card-glance" },
      f.glance.map((g) => {
        const slot = g === f.slot_word || ["Head", "Armor", "Feet"].includes(g) || /Hands?$/.test(g);
        const key = slot ? (f.slot === "none" ? (f.steed ? "steed" : null) : f.slot) : null;
        return el("span", { class: "glance" + (slot ? " glance-slot" : "") }, key ? icon(key, "", true) : null, g);
      })
    );
  }

  // ------------------------------------------------------------------ the popover
  const box = el("div", { id: "card-face", class: "card-face", role: "tooltip", hidden: true });
  let anchor = null; // the element it opened for
  let shownName = "";
  let mode = ""; // "hover" | "focus" | "tap"
  let hoverTimer = 0;
  let hideTimer = 0;
  let lastPointer = "mouse";
  let lastPointerAt = 0;
  let dismissed = ""; // the name closed by Escape: a redraw that gives its card focus again keeps it closed
  let extra = null; // the page's own part of a pinned face (the table's "Moves with this card"), or null

  /** What the page adds to a pinned face: fn(anchor, face) gives a node (or null), drawn under the card. */
  function setExtra(fn) {
    extra = typeof fn === "function" ? fn : null;
  }

  function body(f) {
    const head = el(
      "div",
      { class: "cf-head" },
      icon(f.icon, f.kind_word, true),
      el("strong", { class: "cf-name" }, f.name),
      mode === "tap"
        ? el("button", { type: "button", class: "cf-close small", "aria-label": "Close the card" }, "×")
        : null
    );
    const kind = el("p", { class: "cf-kind" }, `${f.deck_word} · ${f.kind_word}`);
    const lines = el(
      "dl",
      { class: "cf-lines" },
      (f.lines || []).map((ln) =>
        el(
          "div",
          { class: "cf-line" },
          el("dt", null, ln.label),
          el(
            "dd",
            null,
            ln.label === "Slot" && f.slot && f.slot !== "none" ? icon(f.slot, "", true) : null,
            ln.label === "Slot" && f.steed ? icon("steed", "", true) : null,
            ln.label === "Size" && f.big ? icon("big", "", true) : null,
            ln.text
          )
        )
      )
    );
    const eds = f.editions && f.editions.length > 1 ? ` (also in ${f.editions.filter((e) => e !== f.edition).join(", ")})` : "";
    const own = mode === "tap" && extra ? extra(anchor, f) : null;
    return [
      head,
      own ? el("div", { class: "cf-actions" }, own) : null,
      kind,
      f.glance && f.glance.length ? el("p", { class: "cf-glance" }, glanceNodes(f.name)) : null,
      lines,
      el("p", { class: "cf-text" }, f.text),
      el("p", { class: "cf-edition" }, `${f.edition}${eds}: ${f.provenance_word}.`),
    ];
  }

  function show(target, how) {
    const name = target && target.dataset ? target.dataset.card : "";
    const f = face(name);
    if (!f) return;
    clearTimeout(hideTimer);
    clearTimeout(hoverTimer);
    if (anchor && anchor !== target) anchor.removeAttribute("aria-describedby");
    anchor = target;
    mode = how;
    shownName = f.name;
    box.className = `card-face deck-${f.deck || "none"} kind-${f.kind}${how === "tap" ? " pinned" : ""}`;
    if (how === "tap") {
      box.setAttribute("role", "dialog");
      box.setAttribute("aria-label", `Card: ${f.name}`);
      box.removeAttribute("aria-modal");
    } else {
      box.setAttribute("role", "tooltip");
      box.removeAttribute("aria-label");
      target.setAttribute("aria-describedby", "card-face");
    }
    M.fill(box, body(f));
    box.hidden = false;
    place();
    if (how === "tap") {
      const close = box.querySelector(".cf-close");
      if (close) {
        close.addEventListener("click", () => {
          dismissed = anchor ? keyOf(anchor) : ""; // its card, focused again, does not reopen it
          hide(true);
        });
      }
    }
  }

  const keyOf = (t) => (t.dataset.cardId ? "#" + t.dataset.cardId : t.dataset.card);

  function hide(returnFocus) {
    clearTimeout(hoverTimer);
    clearTimeout(hideTimer);
    if (box.hidden) return;
    const was = anchor;
    const name = shownName;
    const hadFocus = box.contains(document.activeElement);
    box.hidden = true;
    box.replaceChildren();
    if (was) was.removeAttribute("aria-describedby");
    anchor = null;
    mode = "";
    shownName = "";
    if (returnFocus && hadFocus) {
      // back to the card it opened for, or to the same name where a redraw replaced that element
      const back = was && was.isConnected ? was : document.querySelector(`[data-card="${CSS.escape(name)}"]`);
      if (back) back.focus({ preventScroll: true });
    }
  }

  const narrow = () => window.innerWidth < 600;

  /** Beside its card on a wide screen, inside the viewport; a sheet along the bottom on a phone. */
  function place() {
    const vw = document.documentElement.clientWidth || window.innerWidth;
    const vh = window.innerHeight;
    box.classList.toggle("sheet", narrow());
    if (narrow() || !anchor || !anchor.isConnected) {
      box.style.left = box.style.top = "";
      if (!narrow()) {
        box.style.left = `${Math.max(8, vw - box.offsetWidth - 8)}px`;
        box.style.top = "8px";
      }
      return;
    }
    const r = anchor.getBoundingClientRect();
    const w = box.offsetWidth;
    const h = box.offsetHeight;
    let left = Math.min(Math.max(8, r.left), vw - w - 8);
    let top = r.bottom + 6;
    if (top + h > vh - 8) top = r.top - h - 6 >= 8 ? r.top - h - 6 : Math.max(8, vh - h - 8);
    if (top < 8) top = 8;
    box.style.left = `${Math.max(8, left)}px`;
    box.style.top = `${top}px`;
  }

  function focusVisible(node) {
    try {
      return node.matches(":focus-visible");
    } catch (_) {
      return true;
    }
  }

  const cardOf = (node) => (node && node.closest ? node.closest("[data-card]") : null);

  function install() {
    (document.querySelector("main") || document.body).appendChild(box); // inside a landmark: fixed, so anywhere
    document.addEventListener(
      "pointerdown",
      (ev) => {
        lastPointer = ev.pointerType || "mouse";
        lastPointerAt = performance.now();
      },
      true
    );
    const touchLately = () => lastPointer !== "mouse" && performance.now() - lastPointerAt < 1000;

    document.addEventListener("mouseover", (ev) => {
      if (touchLately() || mode === "tap") return;
      const t = cardOf(ev.target);
      if (t && face(t.dataset.card)) {
        clearTimeout(hideTimer);
        clearTimeout(hoverTimer);
        if (anchor === t && !box.hidden) return;
        hoverTimer = setTimeout(() => show(t, "hover"), box.hidden ? 250 : 60);
      } else if (box.contains(ev.target)) {
        clearTimeout(hideTimer);
      }
    });
    document.addEventListener("mouseout", (ev) => {
      if (mode === "tap") return;
      const from = cardOf(ev.target) || (box.contains(ev.target) ? box : null);
      if (!from) return;
      const to = ev.relatedTarget;
      if (to && (box.contains(to) || cardOf(to) === from)) return;
      clearTimeout(hoverTimer);
      if (mode === "hover") hideTimer = setTimeout(() => hide(false), 200);
    });
    document.addEventListener("focusin", (ev) => {
      if (box.contains(ev.target)) return;
      const t = cardOf(ev.target);
      const f = t ? face(t.dataset.card) : null;
      if (!f) {
        dismissed = "";
        if (mode === "focus") hide(false);
        return;
      }
      if (mode === "tap" && shownName === f.name) return;
      if (!focusVisible(t)) return; // a click focuses a button too: the pointer has its own ways
      if (keyOf(t) === dismissed) return; // closed with Escape, then focused again by a redraw
      dismissed = "";
      show(t, "focus");
    });
    document.addEventListener("focusout", (ev) => {
      if (mode !== "focus" || cardOf(ev.target) !== anchor) return;
      setTimeout(() => {
        const a = document.activeElement;
        if (mode === "focus" && !cardOf(a) && !box.contains(a)) hide(false);
      }, 0);
    });
    document.addEventListener(
      "click",
      (ev) => {
        if (box.contains(ev.target)) return;
        const t = cardOf(ev.target);
        if (t && face(t.dataset.card)) {
          // a tap or a click on a card pins its face (reading a card is all a click does: what the page
          // adds to the face, such as "Moves with this card", is a second, deliberate step); the same
          // name again closes it. Pressed by keyboard (a click with no pointer), the face takes the focus.
          if (mode === "tap" && shownName === face(t.dataset.card).name) hide(false);
          else {
            show(t, "tap");
            if (ev.detail === 0 && !t.classList.contains("card-ref")) {
              const first = box.querySelector(".cf-actions button") || box.querySelector(".cf-close");
              if (first) first.focus();
            }
          }
          return;
        }
        // a click anywhere else, or on another card, closes a pinned face
        if (mode === "tap" && (!t || !face(t.dataset.card) || face(t.dataset.card).name !== shownName)) hide(false);
      },
      true
    );
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && !box.hidden) {
        dismissed = anchor ? keyOf(anchor) : "";
        hide(true);
        return;
      }
      const t = cardOf(ev.target);
      if ((ev.key === "Enter" || ev.key === " ") && t && t.classList.contains("card-ref")) {
        ev.preventDefault();
        show(t, "tap");
        const close = box.querySelector(".cf-close");
        if (close) close.focus();
        return;
      }
      // the log holds many names: its own arrow keys move between them, so Tab passes it in one step
      const log = ev.target.closest && ev.target.closest(".log");
      if (log && (ev.key === "ArrowRight" || ev.key === "ArrowLeft")) {
        const refs = [...log.querySelectorAll(".card-ref")];
        if (!refs.length) return;
        const i = refs.indexOf(ev.target);
        const next = i < 0 ? refs.length - 1 : i + (ev.key === "ArrowRight" ? 1 : -1); // from the log itself: the newest
        const n = refs[Math.max(0, Math.min(refs.length - 1, next))];
        ev.preventDefault();
        n.focus();
        n.scrollIntoView({ block: "nearest" });
      }
    });
    window.addEventListener(
      "scroll",
      () => {
        if (box.hidden || mode === "tap" || narrow()) return;
        if (anchor && anchor.isConnected) place();
        else hide(false);
      },
      true
    );
    window.addEventListener("resize", () => {
      if (!box.hidden) place();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", install);
  else install();

  return { load, whenReady, face, glance, glanceNodes, icon, linkify, ref, hide, setExtra };
})();
