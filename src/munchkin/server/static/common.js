/* Munchkin table: helpers shared by the lobby and the table page. Plain ES2020, no build step. */
"use strict";

const M = (() => {
  /** Build an element: el("a", {href: "/", class: "x", dataset: {seat: 1}}, "text", child, ...).
   * `style` is an object of properties ({"--seat-colour": "#a00"}), set through the element's style
   * object: a style attribute (a string here) is inline style, which the pages' Content-Security-Policy
   * refuses. */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k === "class") e.className = v;
        else if (k === "style" && typeof v === "object") {
          for (const [p, x] of Object.entries(v)) e.style.setProperty(p, String(x));
        } else if (k === "dataset") Object.assign(e.dataset, v);
        else if (k === "text") e.textContent = v;
        else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
        else if (v === true) e.setAttribute(k, "");
        else e.setAttribute(k, String(v));
      }
    }
    append(e, children);
    return e;
  }

  function append(parent, children) {
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      if (Array.isArray(c)) append(parent, c);
      else if (c instanceof Node) parent.appendChild(c);
      else parent.appendChild(document.createTextNode(String(c)));
    }
    return parent;
  }

  /** Replace all children of a node. */
  function fill(node, ...children) {
    node.replaceChildren();
    return append(node, children);
  }

  /** The message of an API error body: {"detail": str} or FastAPI's list of problems. */
  function detailText(body, status) {
    if (body && typeof body === "object" && "detail" in body) {
      const d = body.detail;
      if (typeof d === "string") return d;
      if (Array.isArray(d)) {
        return d
          .map((x) => {
            if (x && typeof x === "object") {
              let loc = Array.isArray(x.loc) ? x.loc.filter((p) => p !== "body") : [];
              if (loc[0] === "seats" && typeof loc[1] === "number") loc = [`seat ${loc[1] + 1}`, ...loc.slice(2)];
              const where = loc.join(" ").replace(/_/g, " ");
              const msg = String(x.msg || JSON.stringify(x)).replace(/^Value error, /, "");
              return (where ? where + ": " : "") + msg;
            }
            return String(x);
          })
          .join("; ");
      }
      return JSON.stringify(d);
    }
    return `the server answered ${status}`;
  }

  /** A Retry-After header in seconds from now: delta-seconds or an HTTP date; null without one. */
  function retryAfter(v) {
    if (!v) return null;
    if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return parseFloat(v);
    const at = Date.parse(v);
    return isNaN(at) ? null : Math.max(0, Math.round((at - Date.now()) / 1000));
  }

  /** fetch + JSON; throws Error(detail) on a non-2xx answer. */
  async function api(path, options = {}) {
    const init = { headers: { Accept: "application/json" }, ...options };
    if (options.json !== undefined) {
      init.method = init.method || "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(options.json);
      delete init.json;
    }
    let resp;
    try {
      resp = await fetch(path, init);
    } catch (err) {
      throw new Error("cannot reach the server (" + (err && err.message ? err.message : err) + ")");
    }
    let body = null;
    const text = await resp.text();
    if (text) {
      try {
        body = JSON.parse(text);
      } catch (_) {
        body = null;
      }
    }
    if (!resp.ok) {
      const e = new Error(detailText(body, resp.status));
      e.status = resp.status;
      e.body = body;
      e.retryAfter = retryAfter(resp.headers.get("Retry-After")); // seconds (429, 503), or null
      throw e;
    }
    return body;
  }

  const KIND_LABEL = {
    monster: "Monster",
    curse: "Curse",
    race: "Race",
    class: "Class",
    enhancer: "Monster enhancer",
    special: "Special",
    item: "Item",
    one_shot: "One-shot",
    go_up_a_level: "Go Up a Level",
    hireling: "Hireling",
    sidekick: "Sidekick",
  };

  function kindLabel(kind, word) {
    if (!kind) return "";
    if (word && kind === "curse") return word; // a set's own word: Star Munchkin's Traps
    return KIND_LABEL[kind] || kind.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  }

  function deckLabel(deck) {
    return deck === "door" ? "Door" : deck === "treasure" ? "Treasure" : deck || "";
  }

  function plural(n, word, many) {
    return `${n} ${n === 1 ? word : many || word + "s"}`;
  }

  /** Copy text; falls back to a hidden textarea where the async clipboard is not allowed (plain http). */
  async function copyText(text) {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (_) {
      /* fall through */
    }
    const ta = el("textarea", { "aria-hidden": "true", style: { position: "fixed", left: "-9999px", top: "0" } });
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch (_) {
      ok = false;
    }
    ta.remove();
    return ok;
  }

  /** Tables this browser created, with their seat links (they are shown only once by the server). */
  const STORE_KEY = "munchkin.myTables";

  function myTables() {
    try {
      const v = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
      return Array.isArray(v) ? v : [];
    } catch (_) {
      return [];
    }
  }

  function saveMyTables(list) {
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(list.slice(0, 50)));
    } catch (_) {
      /* private mode: nothing to do */
    }
  }

  function absolute(url) {
    try {
      return new URL(url, location.origin).href;
    } catch (_) {
      return location.origin + url;
    }
  }

  /** How to scroll something into view: at once for people who asked their system for less motion
   * (a script's "smooth" would override the style sheet's `scroll-behavior`), else smoothly. */
  function scrollMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
  }

  return { el, append, fill, api, detailText, kindLabel, deckLabel, plural, copyText, myTables, saveMyTables, absolute, scrollMotion };
})();
