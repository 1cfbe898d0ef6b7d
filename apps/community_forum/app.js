/* Trailhead Forum: categories, threads, replies and upvotes. State lives in localStorage. */
(function () {
  "use strict";

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const SEED = window.TRAILHEAD_SEED;
  const STORAGE_KEY = "community_forum.state";
  const ME = SEED.me.handle;
  const TITLE_MIN = 10;
  const TITLE_MAX = 120;
  const BODY_MIN = 20;

  const view = document.getElementById("view");
  let state = load();
  let sort = "newest";
  let currentCategory = "all";
  let draftReply = "";

  /* ---------- storage ---------- */
  function seedState() {
    const now = Date.now();
    const at = (hours) => new Date(now - hours * 3600 * 1000).toISOString();
    return {
      votes: [],
      nextId: 100,
      threads: SEED.threads.map((t) => ({
        id: t.id, category: t.category, author: t.author, title: t.title, body: t.body,
        createdAt: at(t.hoursAgo), score: t.score, bonus: 0, replyCount: t.replies.length,
        replies: t.replies.map((r) => ({ author: r.author, text: r.text, createdAt: at(r.hoursAgo) })),
      })),
    };
  }

  function load() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY));
      if (saved && Array.isArray(saved.threads)) return saved;
    } catch (e) { /* use seed */ }
    const fresh = seedState();
    localStorage.setItem(STORAGE_KEY, JSON.stringify(fresh));
    return fresh;
  }

  function save() {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  }

  /* ---------- helpers ---------- */
  function h(tag, attrs = {}, children = []) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of [].concat(children)) if (c !== null && c !== undefined && c !== false) node.append(c);
    return node;
  }

  function category(id) {
    return SEED.categories.find((c) => c.id === id);
  }

  function thread(id) {
    return state.threads.find((t) => t.id === id);
  }

  function ago(iso) {
    const secs = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
    if (secs < 60) return "just now";
    const mins = Math.floor(secs / 60);
    if (mins < 60) return `${mins} minute${mins === 1 ? "" : "s"} ago`;
    const hours = Math.floor(mins / 60);
    if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
    const days = Math.floor(hours / 24);
    return `${days} day${days === 1 ? "" : "s"} ago`;
  }

  function timeEl(iso) {
    return h("time", { datetime: iso, title: new Date(iso).toLocaleString("en-US") , text: ago(iso) });
  }

  function hasVoted(t) {
    return state.votes.includes(t.id);
  }

  function score(t) {
    return t.score + t.bonus;
  }

  function shownReplyCount(t) {
    return t.replyCount;
  }

  function avatar(handle) {
    let hash = 0;
    for (const ch of handle) hash = (hash * 31 + ch.charCodeAt(0)) % 360;
    return h("span", { class: "avatar", style: `background:hsl(${hash} 45% 42%)`, "aria-hidden": "true", text: handle.slice(0, 2).toUpperCase() });
  }

  function toast(message) {
    const node = h("div", { class: "toast", text: message });
    document.getElementById("toasts").append(node);
    setTimeout(() => node.remove(), 3000);
  }

  /* ---------- voting ---------- */
  function toggleVote(id) {
    const t = thread(id);
    if (defect("upvote-repeatable")) {
      t.bonus += 1;
      if (!hasVoted(t)) state.votes.push(id);
    } else if (hasVoted(t)) {
      state.votes = state.votes.filter((v) => v !== id);
      t.bonus = 0;
    } else {
      state.votes.push(id);
      t.bonus = 1;
    }
    save();
    route();
  }

  function voteButton(t) {
    const voted = hasVoted(t);
    return h("div", { class: `vote ${voted ? "voted" : ""}` }, [
      h("button", {
        type: "button", class: "vote-btn", "aria-pressed": voted ? "true" : "false",
        "aria-label": `Upvote "${t.title}"`, title: voted ? "Remove your upvote" : "Upvote",
        onclick: () => toggleVote(t.id),
      }, svgArrow()),
      h("span", { class: "score", "data-testid": "score", "aria-label": `${score(t)} upvotes`, text: String(score(t)) }),
    ]);
  }

  function svgArrow() {
    const icon = h("span", { class: "vote-icon", "aria-hidden": "true" });
    icon.innerHTML = '<svg width="18" height="18" viewBox="0 0 18 18"><path d="M9 3l6 7h-4v5H7v-5H3z" fill="currentColor"/></svg>';
    return icon;
  }

  /* ---------- sidebar ---------- */
  function renderSidebar() {
    const list = document.getElementById("cat-list");
    const entries = [{ id: "all", name: "All threads" }, ...SEED.categories];
    list.replaceChildren(...entries.map((c) => {
      const n = c.id === "all" ? state.threads.length : state.threads.filter((t) => t.category === c.id).length;
      const href = c.id === "all" ? "#/" : `#/c/${c.id}`;
      return h("li", {}, h("a", { href, class: "cat-link", "aria-current": c.id === currentCategory ? "page" : null }, [
        h("span", { text: c.name }),
        h("span", { class: "cat-count", "aria-label": `${n} threads`, text: String(n) }),
      ]));
    }));
  }

  /* ---------- list view ---------- */
  function sortedThreads(items) {
    const copy = items.slice();
    if (sort === "top") {
      if (defect("top-sort-by-replies")) copy.sort((a, b) => b.replies.length - a.replies.length);
      else copy.sort((a, b) => score(b) - score(a) || b.createdAt.localeCompare(a.createdAt));
    } else {
      copy.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    }
    return copy;
  }

  function renderList() {
    const cat = currentCategory === "all" ? null : category(currentCategory);
    const items = sortedThreads(state.threads.filter((t) => !cat || t.category === cat.id));
    const sortControl = h("fieldset", { class: "segmented" }, [
      h("legend", { class: "visually-hidden", text: "Sort threads" }),
      ...[["newest", "Newest"], ["top", "Top"]].map(([value, label]) => h("label", { class: sort === value ? "on" : "" }, [
        h("input", { type: "radio", name: "sort", value, checked: sort === value, onchange: () => { sort = value; renderList(); } }),
        h("span", { text: label }),
      ])),
    ]);
    const header = h("div", { class: "list-head" }, [
      h("div", {}, [
        h("h1", { text: cat ? cat.name : "All threads" }),
        h("p", { class: "muted", text: cat ? cat.blurb : "Latest conversations from the Trailhead community." }),
      ]),
      h("div", { class: "sort" }, [h("span", { class: "sort-label", "aria-hidden": "true", text: "Sort by" }), sortControl]),
    ]);
    let body;
    if (!items.length) {
      body = h("div", { class: "empty" }, [
        h("p", { class: "empty-title", text: `No threads in ${cat ? cat.name : "the forum"} yet.` }),
        h("p", { text: "Be the first to start a conversation." }),
        h("a", { class: "btn btn-primary", href: "#/new", text: "Start a thread" }),
      ]);
    } else {
      body = h("ul", { class: "thread-list", "aria-label": "Threads" }, items.map((t) => h("li", { class: "thread-row" }, [
        voteButton(t),
        h("div", { class: "thread-main" }, [
          h("h2", { class: "thread-title" }, h("a", { href: `#/t/${t.id}`, text: t.title })),
          h("p", { class: "meta" }, [
            h("span", { class: `chip chip-${t.category}`, text: category(t.category).name }),
            h("span", {}, ["by ", h("strong", { text: t.author })]),
            h("span", { "aria-hidden": "true", text: "·" }),
            timeEl(t.createdAt),
          ]),
        ]),
        h("div", { class: "replies-count", "data-testid": "reply-count" }, [
          h("span", { class: "num", text: String(shownReplyCount(t)) }),
          h("span", { text: shownReplyCount(t) === 1 ? " reply" : " replies" }),
        ]),
      ])));
    }
    view.replaceChildren(header, body);
    renderSidebar();
  }

  /* ---------- thread view ---------- */
  function renderThread(id) {
    const t = thread(id);
    if (!t) {
      view.replaceChildren(h("div", { class: "empty" }, [h("h1", { text: "Thread not found" }), h("a", { href: "#/", text: "Back to all threads" })]));
      return;
    }
    const back = currentCategory === "all" ? "#/" : `#/c/${currentCategory}`;
    const replies = t.replies.length
      ? h("ol", { class: "reply-list", "aria-label": "Replies" }, t.replies.map((r) => h("li", { class: "reply" }, [
          avatar(r.author),
          h("div", {}, [
            h("p", { class: "meta" }, [h("strong", { text: r.author }), h("span", { "aria-hidden": "true", text: "·" }), timeEl(r.createdAt)]),
            h("p", { class: "reply-text", text: r.text }),
          ]),
        ])))
      : h("p", { class: "empty-inline", text: "No replies yet. Share what you know!" });
    const error = h("p", { class: "error", id: "reply-error", role: "alert" });
    const textarea = h("textarea", { id: "reply-text", rows: "4", placeholder: "Share advice, conditions or a question…", "aria-describedby": "reply-error" });
    textarea.value = draftReply;
    textarea.addEventListener("input", () => { draftReply = textarea.value; });
    const form = h("form", { class: "reply-form", novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      const text = textarea.value.trim();
      if (!text) {
        error.textContent = "Write something before posting your reply.";
        textarea.setAttribute("aria-invalid", "true");
        textarea.focus();
        return;
      }
      t.replies.push({ author: ME, text, createdAt: new Date().toISOString() });
      if (!defect("reply-count-stale")) t.replyCount = t.replies.length;
      draftReply = defect("reply-form-not-cleared") ? textarea.value : "";
      save();
      renderThread(id);
      toast("Reply posted");
      document.getElementById("reply-text").focus();
    } }, [
      h("label", { for: "reply-text", class: "label", text: "Your reply" }),
      textarea,
      error,
      h("div", { class: "form-actions" }, h("button", { type: "submit", class: "btn btn-primary", text: "Post reply" })),
    ]);
    view.replaceChildren(
      h("a", { href: back, class: "back-link", text: "← Back to threads" }),
      h("article", { class: "thread-full", "aria-labelledby": "thread-h1" }, [
        voteButton(t),
        h("div", { class: "thread-main" }, [
          h("p", { class: "meta" }, [
            h("span", { class: `chip chip-${t.category}`, text: category(t.category).name }),
            h("span", {}, ["by ", h("strong", { text: t.author })]),
            h("span", { "aria-hidden": "true", text: "·" }),
            timeEl(t.createdAt),
          ]),
          h("h1", { id: "thread-h1", tabindex: "-1", text: t.title }),
          h("p", { class: "thread-body", text: t.body }),
        ]),
      ]),
      h("section", { class: "replies", "aria-labelledby": "replies-h" }, [
        h("h2", { id: "replies-h", text: `${t.replies.length} ${t.replies.length === 1 ? "reply" : "replies"}` }),
        replies,
        form,
      ]),
    );
    renderSidebar();
  }

  /* ---------- compose view ---------- */
  function renderCompose() {
    const field = (id, label, control, hint) => h("div", { class: "field" }, [
      h("label", { for: id, class: "label", text: label }),
      hint ? h("p", { class: "hint", id: `${id}-hint`, text: hint }) : null,
      control,
      h("p", { class: "error", id: `${id}-error`, role: "alert" }),
    ]);
    const title = h("input", { id: "new-title", type: "text", maxlength: String(TITLE_MAX), autocomplete: "off", "aria-describedby": "new-title-hint new-title-error" });
    const cat = h("select", { id: "new-category", "aria-describedby": "new-category-error" }, [
      h("option", { value: "", text: "Choose a category" }),
      ...SEED.categories.map((c) => h("option", { value: c.id, text: c.name })),
    ]);
    if (currentCategory !== "all") cat.value = currentCategory;
    const body = h("textarea", { id: "new-body", rows: "8", "aria-describedby": "new-body-hint new-body-error" });
    const form = h("form", { class: "compose", novalidate: true, onsubmit: (e) => { e.preventDefault(); submitThread(title, cat, body); } }, [
      field("new-title", "Title", title, `Between ${TITLE_MIN} and ${TITLE_MAX} characters. Make it specific.`),
      field("new-category", "Category", cat),
      field("new-body", "Message", body, `At least ${BODY_MIN} characters.`),
      h("div", { class: "form-actions" }, [
        h("a", { href: currentCategory === "all" ? "#/" : `#/c/${currentCategory}`, class: "btn", text: "Cancel" }),
        h("button", { type: "submit", class: "btn btn-primary", text: "Post thread" }),
      ]),
    ]);
    view.replaceChildren(h("h1", { text: "Start a new thread" }), h("p", { class: "muted", text: "Ask a question or share something with the community." }), form);
    renderSidebar();
    title.focus();
  }

  function submitThread(titleEl, catEl, bodyEl) {
    const title = titleEl.value.trim();
    const body = bodyEl.value.trim();
    const errors = {};
    if (!title) errors["new-title"] = "Give your thread a title.";
    else if (!defect("title-min-length-unchecked") && title.length < TITLE_MIN) errors["new-title"] = `Title must be at least ${TITLE_MIN} characters.`;
    if (!catEl.value) errors["new-category"] = "Choose a category.";
    if (!body) errors["new-body"] = "Write a message for your thread.";
    else if (body.length < BODY_MIN) errors["new-body"] = `Message must be at least ${BODY_MIN} characters.`;
    for (const [id, el] of [["new-title", titleEl], ["new-category", catEl], ["new-body", bodyEl]]) {
      document.getElementById(`${id}-error`).textContent = errors[id] || "";
      if (errors[id]) el.setAttribute("aria-invalid", "true"); else el.removeAttribute("aria-invalid");
    }
    const firstBad = Object.keys(errors)[0];
    if (firstBad) {
      document.getElementById(firstBad).focus();
      return;
    }
    const t = {
      id: `t${state.nextId++}`, category: catEl.value, author: ME, title, body,
      createdAt: new Date().toISOString(), score: 0, bonus: 0, replyCount: 0, replies: [],
    };
    state.threads.push(t);
    save();
    toast("Thread posted");
    currentCategory = "all";
    sort = "newest";
    location.hash = "#/";
  }

  /* ---------- router ---------- */
  function route() {
    const hash = location.hash.replace(/^#/, "") || "/";
    const parts = hash.split("/").filter(Boolean);
    if (parts[0] === "t" && parts[1]) {
      renderThread(parts[1]);
      return;
    }
    draftReply = "";
    if (parts[0] === "new") {
      renderCompose();
      return;
    }
    currentCategory = parts[0] === "c" && category(parts[1]) ? parts[1] : "all";
    renderList();
  }

  window.addEventListener("hashchange", () => {
    route();
    const heading = view.querySelector("h1");
    if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus(); }
    window.scrollTo(0, 0);
  });
  route();
})();
