/* Marginalia: books, star ratings and reader reviews. State lives in localStorage. */
(function () {
  "use strict";

  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const SEED = window.MARGINALIA_SEED;
  const ME = SEED.me;
  const STORAGE_KEY = "book_reviews.state";
  const TEXT_MIN = 20;
  const TEXT_MAX = 2000;
  const RATING_WORDS = ["", "Didn't like it", "It was OK", "Liked it", "Really liked it", "Loved it"];
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  const view = document.getElementById("view");
  const reportDialog = document.getElementById("report-dialog");
  const deleteDialog = document.getElementById("delete-dialog");

  let state = load();
  const hiddenThisSession = new Set();
  const summaryCache = {};
  let reviewSort = "recent";
  let editingId = null;
  let reportTarget = null;
  let deleteTarget = null;

  /* ---------- storage ---------- */
  function load() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORAGE_KEY));
      if (saved && Array.isArray(saved.reviews)) return saved;
    } catch (e) { /* start from the seed */ }
    return { reviews: SEED.reviews.map((r) => ({ ...r })), reported: [], nextId: 100 };
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

  const book = (id) => SEED.books.find((b) => b.id === id);

  function todayIso() {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  }

  function formatDate(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    return `${MONTHS[m - 1]} ${d}, ${y}`;
  }

  function reviewsOf(bookId) {
    return state.reviews.filter((r) => r.book === bookId && !hiddenThisSession.has(r.id));
  }

  function computeSummary(bookId) {
    const list = reviewsOf(bookId);
    const dist = [0, 0, 0, 0, 0, 0];
    list.forEach((r) => { dist[r.rating] = (dist[r.rating] || 0) + 1; });
    const avg = list.length ? list.reduce((s, r) => s + r.rating, 0) / list.length : 0;
    return { avg, count: list.length, dist };
  }

  function detailSummary(bookId) {
    if (!defect("average-stale")) return computeSummary(bookId);
    if (!summaryCache[bookId]) summaryCache[bookId] = computeSummary(bookId);
    return summaryCache[bookId];
  }

  function stars(rating, size = "") {
    const rounded = Math.round(rating);
    const label = `${Number.isInteger(rating) ? rating : rating.toFixed(1)} out of 5 stars`;
    return h("span", { class: `stars ${size}`, role: "img", "aria-label": label },
      [1, 2, 3, 4, 5].map((n) => h("span", { class: n <= rounded ? "star on" : "star", "aria-hidden": "true", text: "★" })));
  }

  function reviewCountText(n) {
    return `${n} ${n === 1 ? "review" : "reviews"}`;
  }

  function initials(name) {
    return name.split(" ").map((p) => p[0]).join("").slice(0, 2);
  }

  function cover(b, big = false) {
    return h("div", { class: `cover ${big ? "big" : ""}`, style: `--c1:${b.colors[0]};--c2:${b.colors[1]}`, "aria-hidden": "true" }, [
      h("span", { class: "cover-title", text: b.title }),
      h("span", { class: "cover-author", text: b.author }),
    ]);
  }

  function toast(message) {
    const node = h("div", { class: "toast", text: message });
    document.getElementById("toasts").append(node);
    setTimeout(() => node.remove(), 3000);
  }

  /* ---------- book list ---------- */
  function renderList() {
    const cards = SEED.books.map((b) => {
      const s = computeSummary(b.id);
      const rating = s.count
        ? h("p", { class: "rating-line" }, [stars(s.avg), h("span", { class: "avg", text: s.avg.toFixed(1) }), h("span", { class: "muted", text: `(${reviewCountText(s.count)})` })])
        : h("p", { class: "rating-line muted", text: "No reviews yet" });
      return h("li", {}, h("article", { class: "book-card", "aria-labelledby": `bt-${b.id}` }, [
        h("a", { href: `#/book/${b.id}`, tabindex: "-1", "aria-hidden": "true" }, cover(b)),
        h("h2", { class: "book-title", id: `bt-${b.id}` }, h("a", { href: `#/book/${b.id}`, text: b.title })),
        h("p", { class: "book-author", text: b.author }),
        rating,
      ]));
    });
    view.replaceChildren(
      h("section", { class: "hero" }, [
        h("h1", { text: "What our readers are reading" }),
        h("p", { text: "Browse the shelf, see what the community thinks, and add your own honest review." }),
      ]),
      h("ul", { class: "book-grid", "aria-label": "Books" }, cards),
    );
  }

  /* ---------- rating picker ---------- */
  function ratingPicker(legend, initial) {
    const output = h("span", { class: "rating-word", "aria-live": "polite", text: initial ? RATING_WORDS[initial] : "Select a rating" });
    const labels = [];
    const paint = (value) => labels.forEach((l, i) => l.classList.toggle("on", i < value));
    const current = () => Number((fieldset.querySelector("input:checked") || {}).value || 0);
    const fieldset = h("fieldset", { class: "rating-picker" }, [h("legend", { class: "label", text: legend })]);
    const row = h("div", { class: "star-row", onmouseleave: () => paint(current()) });
    for (let n = 1; n <= 5; n++) {
      const input = h("input", { type: "radio", name: "rating", value: String(n), checked: n === initial, onchange: () => { paint(n); output.textContent = RATING_WORDS[n]; } });
      const label = h("label", { class: "star-pick", onmouseenter: () => paint(n) }, [
        input,
        h("span", { "aria-hidden": "true", text: "★" }),
        h("span", { class: "visually-hidden", text: `${n} ${n === 1 ? "star" : "stars"}` }),
      ]);
      labels.push(label);
      row.append(label);
    }
    fieldset.append(row, output);
    paint(initial || 0);
    return { fieldset, value: current };
  }

  function reviewForm({ legend, initialRating, initialText, submitLabel, onSubmit, onCancel }) {
    const picker = ratingPicker(legend, initialRating);
    const ratingError = h("p", { class: "error", role: "alert" });
    const textId = `text-${Math.random().toString(36).slice(2, 8)}`;
    const textarea = h("textarea", { id: textId, rows: "5", maxlength: String(TEXT_MAX), placeholder: "What worked for you? What didn't? Avoid spoilers or warn readers first." });
    textarea.value = initialText || "";
    const counter = h("span", { class: "counter", text: `${textarea.value.length} / ${TEXT_MAX}` });
    textarea.addEventListener("input", () => { counter.textContent = `${textarea.value.length} / ${TEXT_MAX}`; });
    const textError = h("p", { class: "error", role: "alert" });
    const form = h("form", { class: "review-form", novalidate: true, onsubmit: (e) => {
      e.preventDefault();
      const rating = picker.value();
      const text = textarea.value.trim();
      ratingError.textContent = !rating && !(defect("rating-not-required") && !initialRating) ? "Choose a star rating." : "";
      textError.textContent = text.length < TEXT_MIN ? `Your review needs at least ${TEXT_MIN} characters (currently ${text.length}).` : "";
      if (textError.textContent) textarea.setAttribute("aria-invalid", "true"); else textarea.removeAttribute("aria-invalid");
      if (ratingError.textContent || textError.textContent) return;
      onSubmit(rating, text);
    } }, [
      picker.fieldset,
      ratingError,
      h("div", { class: "label-row" }, [h("label", { for: textId, class: "label", text: "Your review" }), counter]),
      textarea,
      textError,
      h("div", { class: "form-actions" }, [
        onCancel ? h("button", { type: "button", class: "btn", text: "Cancel", onclick: onCancel }) : null,
        h("button", { type: "submit", class: "btn btn-primary", text: submitLabel }),
      ]),
    ]);
    return form;
  }

  /* ---------- book detail ---------- */
  function sortedReviews(list) {
    const byDate = (a, b) => b.date.localeCompare(a.date) || b.id.localeCompare(a.id);
    const highest = (a, b) => b.rating - a.rating || byDate(a, b);
    const lowest = (a, b) => a.rating - b.rating || byDate(a, b);
    const cmp = { recent: byDate, highest, lowest: defect("lowest-sort-reversed") ? highest : lowest }[reviewSort];
    return list.slice().sort(cmp);
  }

  function renderReview(r, b) {
    const mine = r.author === ME;
    if (mine && editingId === r.id) {
      return h("li", { class: "review editing" }, [
        h("h3", { class: "edit-title", text: "Edit your review" }),
        reviewForm({
          legend: "Your rating", initialRating: r.rating, initialText: r.text, submitLabel: "Save changes",
          onCancel: () => { editingId = null; renderDetail(b.id); },
          onSubmit: (rating, text) => {
            Object.assign(r, { rating, text, edited: true });
            editingId = null;
            save();
            renderDetail(b.id);
            toast("Your review was updated");
          },
        }),
      ]);
    }
    const reported = state.reported.includes(r.id);
    const actions = mine
      ? [
          h("button", { type: "button", class: "btn btn-small", "aria-label": "Edit your review", text: "Edit", onclick: () => { editingId = r.id; renderDetail(b.id); } }),
          h("button", { type: "button", class: "btn btn-small btn-danger-ghost", "aria-label": "Delete your review", text: "Delete", onclick: () => openDelete(r) }),
        ]
      : [h("button", {
          type: "button", class: "btn btn-small btn-ghost", disabled: reported, "aria-label": reported ? `Review by ${r.author} reported` : `Report review by ${r.author}`,
          text: reported ? "Reported" : "Report", onclick: () => openReport(r),
        })];
    return h("li", { class: `review ${mine ? "mine" : ""}` }, [
      h("div", { class: "review-head" }, [
        h("span", { class: "avatar", "aria-hidden": "true", text: initials(r.author) }),
        h("div", {}, [
          h("p", { class: "reviewer" }, [h("strong", { text: r.author }), mine ? h("span", { class: "badge", text: "You" }) : null]),
          h("p", { class: "muted small" }, [h("time", { datetime: r.date, text: formatDate(r.date) }), r.edited ? " · edited" : ""]),
        ]),
        h("div", { class: "review-stars" }, stars(r.rating)),
      ]),
      h("p", { class: "review-text", text: r.text }),
      h("div", { class: "review-actions" }, actions),
    ]);
  }

  function renderDetail(bookId) {
    const b = book(bookId);
    if (!b) {
      view.replaceChildren(h("div", { class: "empty" }, [h("h1", { text: "Book not found" }), h("a", { href: "#/", text: "Back to all books" })]));
      return;
    }
    const s = detailSummary(b.id);
    const list = reviewsOf(b.id);
    const mine = list.find((r) => r.author === ME);
    const summary = h("section", { class: "summary", "aria-label": "Rating summary" }, s.count
      ? [
          h("p", { class: "big-avg", "data-testid": "average", text: s.avg.toFixed(1) }),
          stars(s.avg, "lg"),
          h("p", { class: "muted", "data-testid": "review-count", text: `Based on ${reviewCountText(s.count)}` }),
          h("ul", { class: "dist", "aria-label": "Rating distribution" }, [5, 4, 3, 2, 1].map((n) => h("li", {}, [
            h("span", { text: `${n}★` }),
            h("span", { class: "bar" }, h("span", { style: `width:${s.count ? (100 * (s.dist[n] || 0)) / s.count : 0}%` })),
            h("span", { class: "muted", text: String(s.dist[n] || 0) }),
          ]))),
        ]
      : [h("p", { class: "big-avg muted", text: "–" }), h("p", { class: "muted", "data-testid": "review-count", text: "No reviews yet" })]);

    const writeArea = mine
      ? h("p", { class: "notice", text: `You reviewed this book on ${formatDate(mine.date)}. You can edit or delete your review below.` })
      : h("section", { class: "write", "aria-labelledby": "write-h" }, [
          h("h2", { id: "write-h", text: "Write a review" }),
          reviewForm({
            legend: "Your rating", initialRating: 0, initialText: "", submitLabel: "Post review",
            onSubmit: (rating, text) => {
              state.reviews.push({ id: `r${state.nextId++}`, book: b.id, author: ME, rating, date: todayIso(), text });
              save();
              renderDetail(b.id);
              toast(`Thanks! Your review of ${b.title} is live.`);
            },
          }),
        ]);

    const sortSelect = h("select", { id: "review-sort", onchange: (e) => { reviewSort = e.target.value; renderDetail(b.id); } },
      [["recent", "Most recent"], ["highest", "Highest rated"], ["lowest", "Lowest rated"]].map(([v, t]) => h("option", { value: v, text: t, selected: v === reviewSort })));

    const reviews = list.length
      ? h("ol", { class: "review-list", "aria-label": "Reviews" }, sortedReviews(list).map((r) => renderReview(r, b)))
      : h("div", { class: "empty" }, [h("p", { class: "empty-title", text: "No reviews yet" }), h("p", { text: "Be the first to tell other readers what you thought." })]);

    view.replaceChildren(
      h("a", { href: "#/", class: "back-link", text: "← All books" }),
      h("div", { class: "book-detail" }, [
        cover(b, true),
        h("div", { class: "book-info" }, [
          h("p", { class: "genre", text: b.genre }),
          h("h1", { text: b.title }),
          h("p", { class: "byline", text: `by ${b.author}` }),
          h("p", { class: "muted", text: `First published ${b.year} · ${b.pages} pages` }),
          h("h2", { class: "visually-hidden", text: "Synopsis" }),
          h("p", { class: "synopsis", text: b.synopsis }),
        ]),
        summary,
      ]),
      h("div", { class: "reviews-area" }, [
        writeArea,
        h("section", { class: "reviews", "aria-labelledby": "reviews-h" }, [
          h("div", { class: "reviews-head" }, [
            h("h2", { id: "reviews-h", text: "Reader reviews" }),
            h("div", { class: "sort" }, [h("label", { for: "review-sort", text: "Sort reviews" }), sortSelect]),
          ]),
          reviews,
        ]),
      ]),
    );
  }

  /* ---------- dialogs ---------- */
  function openReport(r) {
    reportTarget = r;
    document.getElementById("report-form").reset();
    document.getElementById("report-error").textContent = "";
    document.getElementById("report-sub").textContent = `Review by ${r.author} of ${book(r.book).title}`;
    reportDialog.showModal();
  }

  document.getElementById("report-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const reason = e.target.querySelector("input[name=reason]:checked");
    if (!reason) {
      document.getElementById("report-error").textContent = "Choose a reason for your report.";
      return;
    }
    state.reported.push(reportTarget.id);
    save();
    reportDialog.close();
    renderDetail(reportTarget.book);
    if (!defect("report-no-feedback")) toast("Thanks for letting us know. Our moderators will look at this review.");
  });
  document.getElementById("report-cancel").addEventListener("click", () => reportDialog.close());

  function openDelete(r) {
    deleteTarget = r;
    document.getElementById("delete-book").textContent = book(r.book).title;
    deleteDialog.showModal();
  }

  document.getElementById("delete-keep").addEventListener("click", () => deleteDialog.close());
  document.getElementById("delete-confirm").addEventListener("click", () => {
    const r = deleteTarget;
    if (defect("delete-reappears")) {
      hiddenThisSession.add(r.id);
    } else {
      state.reviews = state.reviews.filter((x) => x.id !== r.id);
      save();
    }
    deleteDialog.close();
    renderDetail(r.book);
    toast("Your review was deleted");
  });

  /* ---------- router ---------- */
  function route() {
    const parts = (location.hash.replace(/^#/, "") || "/").split("/").filter(Boolean);
    editingId = null;
    if (parts[0] === "book" && parts[1]) {
      renderDetail(parts[1]);
    } else {
      renderList();
    }
  }

  window.addEventListener("hashchange", () => {
    reviewSort = "recent";
    route();
    const heading = view.querySelector("h1");
    if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus(); }
    window.scrollTo(0, 0);
  });
  route();
})();
