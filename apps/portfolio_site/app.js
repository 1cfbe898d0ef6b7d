/* Noor Haddad portfolio: gallery, category filters, lightbox and contact form. */
(function () {
  "use strict";
  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const { categories, projects } = window.PORTFOLIO;

  const gallery = document.getElementById("gallery");
  const filters = document.getElementById("filters");
  const countEl = document.getElementById("project-count");
  const lightbox = document.getElementById("lightbox");
  const toastEl = document.getElementById("toast");

  let activeCategory = "All";
  let visible = projects.slice();
  let current = 0;
  let shownCount = projects.length;

  /* ---------- artwork: a small SVG scene per category ---------- */
  function artwork(p) {
    const [light, mid, dark] = p.palette;
    let scene;
    if (p.category === "Landscapes") {
      scene = `<circle cx="300" cy="80" r="34" fill="${light}" opacity=".9"/>
        <path d="M0 200 L90 120 L160 180 L250 100 L400 210 L400 300 L0 300Z" fill="${mid}"/>
        <path d="M0 240 L120 190 L230 235 L330 195 L400 230 L400 300 L0 300Z" fill="${dark}"/>`;
    } else if (p.category === "Architecture") {
      scene = `<rect x="60" y="70" width="110" height="230" fill="${mid}"/>
        <rect x="185" y="30" width="150" height="270" fill="${dark}"/>
        <g fill="${light}" opacity=".85">${[0, 1, 2, 3, 4].map((r) =>
          `<rect x="200" y="${50 + r * 45}" width="30" height="26"/><rect x="250" y="${50 + r * 45}" width="30" height="26"/><rect x="294" y="${50 + r * 45}" width="26" height="26"/>`).join("")}</g>
        <path d="M60 70 L170 70 L115 40Z" fill="${dark}" opacity=".7"/>`;
    } else if (p.category === "Portraits") {
      scene = `<ellipse cx="200" cy="130" rx="52" ry="64" fill="${mid}"/>
        <path d="M95 300 C110 215 150 190 200 190 C250 190 290 215 305 300Z" fill="${dark}"/>
        <path d="M146 120 C146 70 180 58 202 58 C236 58 258 80 254 122 C244 96 226 86 200 86 C174 86 156 100 146 120Z" fill="${dark}"/>`;
    } else {
      scene = `<rect x="40" y="40" width="150" height="110" rx="6" fill="${mid}"/>
        <rect x="210" y="40" width="150" height="220" rx="6" fill="${dark}"/>
        <rect x="40" y="170" width="150" height="90" rx="6" fill="${dark}" opacity=".75"/>
        <circle cx="285" cy="120" r="36" fill="${light}" opacity=".8"/>`;
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300"><rect width="400" height="300" fill="${light}"/>${scene}</svg>`;
    return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  }

  /* ---------- filters ---------- */
  function renderFilters() {
    filters.innerHTML = "";
    ["All", ...categories].forEach((cat) => {
      const btn = document.createElement("button");
      btn.type = "button";
      btn.className = "chip";
      btn.textContent = cat;
      btn.setAttribute("aria-pressed", String(cat === activeCategory));
      btn.addEventListener("click", () => setCategory(cat));
      filters.appendChild(btn);
    });
  }

  function setCategory(cat) {
    activeCategory = cat;
    visible = cat === "All" ? projects.slice() : projects.filter((p) => p.category === cat);
    filters.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b.textContent === cat)));
    renderCount();
    renderGallery();
  }

  function renderCount() {
    // The stale build reports the number of projects shown before this filter change.
    const n = defect("project-count-stale") ? shownCount : visible.length;
    shownCount = visible.length;
    const scope = activeCategory === "All" ? "" : ` in ${activeCategory}`;
    countEl.textContent = `Showing ${n} ${n === 1 ? "project" : "projects"}${scope}`;
  }

  /* ---------- gallery ---------- */
  function renderGallery() {
    gallery.innerHTML = "";
    visible.forEach((p, i) => {
      const li = document.createElement("li");
      li.className = "card";
      li.innerHTML = `
        <button type="button" class="card-open" aria-label="Open project ${p.title}">
          <img src="${artwork(p)}" alt="${p.title}: ${p.category.toLowerCase()} photograph, ${p.location}" loading="lazy">
        </button>
        <div class="card-body">
          <h3 class="card-title">${p.title}</h3>
          <p class="card-meta"><span class="tag">${p.category}</span> ${p.year} · ${p.client}</p>
        </div>`;
      li.querySelector(".card-open").addEventListener("click", () => openLightbox(i));
      gallery.appendChild(li);
    });
  }

  /* ---------- lightbox ---------- */
  function lightboxList() {
    return defect("lightbox-ignores-filter") ? projects : visible;
  }

  function openLightbox(indexInVisible) {
    const list = lightboxList();
    current = list.indexOf(visible[indexInVisible]);
    showCurrent();
    if (!lightbox.open) lightbox.showModal();
  }

  function showCurrent() {
    const list = lightboxList();
    const p = list[current];
    document.getElementById("lb-image").src = artwork(p);
    document.getElementById("lb-image").alt = `${p.title}: ${p.category.toLowerCase()} photograph, ${p.location}`;
    document.getElementById("lb-title").textContent = p.title;
    document.getElementById("lb-meta").textContent = `${p.category} · ${p.year}`;
    document.getElementById("lb-description").textContent = p.description;
    document.getElementById("lb-client").textContent = p.client;
    document.getElementById("lb-location").textContent = p.location;
    document.getElementById("lb-year").textContent = p.year;
    document.getElementById("lb-position").textContent = `${current + 1} / ${list.length}`;
  }

  function step(delta) {
    const list = lightboxList();
    current = (current + delta + list.length) % list.length;
    showCurrent();
  }

  document.getElementById("lb-prev").addEventListener("click", () => step(-1));
  document.getElementById("lb-next").addEventListener("click", () => step(1));
  document.getElementById("lb-close").addEventListener("click", () => {
    if (defect("lightbox-close-broken")) {
      lightbox.classList.remove("is-open"); // hides nothing: the dialog stays modal
      return;
    }
    lightbox.close();
  });
  lightbox.addEventListener("click", (e) => {
    if (e.target === lightbox) lightbox.close(); // click on the backdrop
  });
  lightbox.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") step(1);
    if (e.key === "ArrowLeft") step(-1);
  });

  /* ---------- contact form ---------- */
  const form = document.getElementById("contact-form");
  const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

  function setError(input, message) {
    const err = document.getElementById(input.id + "-error");
    err.textContent = message;
    input.setAttribute("aria-invalid", message ? "true" : "false");
    return !message;
  }

  function validate() {
    const name = form.elements.name;
    const email = form.elements.email;
    const message = form.elements.message;
    const checks = [
      setError(name, name.value.trim() ? "" : "Please tell me your name."),
      setError(email, !email.value.trim() ? "Please enter your email address."
        : (!defect("contact-email-unvalidated") && !EMAIL_RE.test(email.value.trim())) ? "That email address doesn't look right." : ""),
      setError(message, message.value.trim().length >= 20 ? "" : "Please write at least 20 characters."),
    ];
    return checks.every(Boolean);
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!validate()) {
      const firstBad = form.querySelector('[aria-invalid="true"]');
      if (firstBad) firstBad.focus();
      return;
    }
    const first = form.elements.name.value.trim().split(/\s+/)[0];
    form.reset();
    ["c-name", "c-email", "c-message"].forEach((id) => document.getElementById(id).removeAttribute("aria-invalid"));
    toast(`Thanks, ${first} — your message has been sent. I'll reply within two business days.`);
  });

  let toastTimer;
  function toast(text) {
    toastEl.textContent = text;
    toastEl.classList.add("show");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { toastEl.classList.remove("show"); toastEl.textContent = ""; }, 3500);
  }

  /* ---------- about portrait ---------- */
  document.getElementById("about-portrait").src =
    defect("about-portrait-broken") ? "img/noor-portrait.jpg" : "img/portrait.svg";

  renderFilters();
  renderCount();
  renderGallery();
})();
