/* Munchkin table: the Rules dialog (the rules help of this table's editions, from /help/...) and the
   explanation of character creation above the moves. Plain ES2020, no build step. */
"use strict";

window.MunchkinHelp = (() => {
  const { el, fill, api } = M;
  const $ = (id) => document.getElementById(id);
  const pathMatch = location.pathname.match(/\/table\/([^/]+)\/?$/);
  const tableId = pathMatch ? decodeURIComponent(pathMatch[1]) : "";
  let loading = null; // the promise of the dialog's content, fetched once when first opened

  /** The table's editions, from the public table summary; none when it cannot be read (the dialog then
      shows the help's index, which links every edition). */
  async function tableSets() {
    if (!tableId) return [];
    try {
      const t = await api(`/api/tables/${encodeURIComponent(tableId)}`);
      return Array.isArray(t.sets) ? t.sets : [];
    } catch (_) {
      return [];
    }
  }

  async function load() {
    const body = $("help-body");
    const sets = await tableSets();
    const path = sets.length ? "/help/" + sets.map(encodeURIComponent).join(",") : "/help";
    $("help-page-link").href = path;
    const resp = await fetch(path, { headers: { Accept: "text/html" } });
    if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
    const doc = new DOMParser().parseFromString(await resp.text(), "text/html");
    const article = doc.querySelector("article.help-doc");
    const toc = doc.querySelector("nav.help-toc");
    const title = doc.querySelector("main h1");
    if (!article) throw new Error("the rules page has no rules in it");
    $("help-dialog-title").textContent = title ? title.textContent : "Rules";
    // the rules' heading ids get a prefix of their own, so they never clash with the table page's ids
    for (const n of article.querySelectorAll("[id]")) n.id = "rules-" + n.id;
    if (toc) for (const a of toc.querySelectorAll('a[href^="#"]')) a.setAttribute("href", "#rules-" + a.getAttribute("href").slice(1));
    // links inside the dialog's table of contents scroll the dialog, not the page
    if (toc) {
      toc.querySelector("h2")?.remove();
      toc.setAttribute("aria-label", "Rules sections");
      for (const a of toc.querySelectorAll('a[href^="#"]')) {
        a.addEventListener("click", (ev) => {
          const target = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
          if (target) {
            ev.preventDefault();
            target.scrollIntoView({ block: "start" });
            target.setAttribute("tabindex", "-1");
            target.focus({ preventScroll: true });
          }
        });
      }
    }
    fill(body, toc ? document.adoptNode(toc) : null, ...[...article.childNodes].map((n) => document.adoptNode(n)));
  }

  function open() {
    const dialog = $("help-dialog");
    if (!dialog || dialog.open) return;
    dialog.showModal();
    $("help-close").focus();
    if (!loading) {
      loading = load().catch((err) => {
        loading = null; // try again next time
        fill(
          $("help-body"),
          el("p", { class: "alert", role: "alert" }, `The rules could not be loaded (${err.message}). `),
          el("p", null, el("a", { href: "/help", target: "_blank", rel: "noopener" }, "Open the rules help page"))
        );
      });
    }
  }

  function close() {
    const dialog = $("help-dialog");
    if (dialog && dialog.open) dialog.close();
  }

  function wire() {
    const button = $("rules-button");
    const dialog = $("help-dialog");
    if (!button || !dialog) return;
    button.addEventListener("click", open);
    $("help-close").addEventListener("click", close);
    // a click on the backdrop (outside the dialog's box) closes it, as Escape does
    dialog.addEventListener("click", (ev) => {
      if (ev.target !== dialog) return;
      const r = dialog.getBoundingClientRect();
      const inside = ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
      if (!inside) close();
    });
    dialog.addEventListener("close", () => button.focus({ preventScroll: true }));
  }

  // ---------------------------------------------------------------- character creation
  function listWords(words) {
    if (words.length <= 1) return words.join("");
    return words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
  }

  /** Whether `seat` has built its character already: creation goes round the table from the first player. */
  function doneBefore(v, seat, creator) {
    const n = (v.players || []).length;
    if (!n || creator === undefined) return false;
    const pos = (s) => (s - v.active + n) % n;
    return pos(seat) < pos(creator);
  }

  /** The explanation above the moves while characters are created (view.phase "setup"); hidden otherwise. */
  function renderSetup(v, mySeat) {
    const box = $("setup-explain");
    if (!box) return;
    const creating = !!v && !v.over && v.phase === "setup";
    box.hidden = !creating;
    if (!creating) return;
    const toAct = v.to_act || [];
    const name = (s) => (v.players && v.players[s] ? v.players[s].name : `seat ${s + 1}`);
    const mine = mySeat !== null && mySeat !== undefined && toAct.includes(mySeat) && v.prompt === "main";
    const stats = [];
    if (v.races_in_game) stats.push("one Race");
    if (v.classes_in_game) stats.push("one Class");
    if (v.houses_in_game) stats.push("one Role", "one Proficiency of Rank 1", "an Ally");
    const head = el("h3", { id: "setup-explain-heading" }, mine ? "Create your character" : "Characters are being created");
    if (!mine) {
      const who = toAct.length ? listWords(toAct.map(name)) : "the players";
      fill(
        box,
        head,
        el(
          "p",
          null,
          `Before the first turn, each player in turn sets up a character from the eight cards dealt. ${who} ` +
            `${toAct.length === 1 ? "is" : "are"} choosing now.` +
            (mySeat === null || mySeat === undefined ? "" : doneBefore(v, mySeat, toAct[0])
              ? " Your character is set: the first turn starts once everyone is ready."
              : " You will build yours when your turn to choose comes.")
        )
      );
      return;
    }
    fill(
      box,
      head,
      el(
        "p",
        null,
        "Before the first turn, each player in turn builds a character from the eight cards dealt. You start at " +
          "Level 1" +
          (v.races_in_game ? ", Human" : "") +
          (v.classes_in_game ? ", with no Class" : "") +
          "."
      ),
      el(
        "ul",
        null,
        el(
          "li",
          null,
          el("strong", null, "Now"),
          ` you may play from your hand ${listWords([...stats, "any Items you can use"])} (marked ✓ in your hand).`
        ),
        el("li", null, "Or keep them: you can still play them on your own turns."),
        el(
          "li",
          null,
          el("strong", null, "Then choose “ready”"),
          ": the next player builds theirs, and the first turn starts once everyone is ready."
        )
      )
    );
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();

  return { open, close, renderSetup };
})();
