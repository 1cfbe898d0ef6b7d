/* Pantry & Pan: recipe search with filters, sorting, detail view and favourites kept on this device. */
(function () {
  "use strict";
  const defect = (id) => (window.WT_DEFECTS || []).includes(id);
  const recipes = window.RECIPES;
  const FAV_KEY = "recipe_finder.favourites";
  const DIET_LABELS = { vegetarian: "Vegetarian", vegan: "Vegan", "gluten-free": "Gluten-free", "dairy-free": "Dairy-free" };
  const $ = (id) => document.getElementById(id);
  const byId = Object.fromEntries(recipes.map((r) => [r.id, r]));

  /* ---------- favourites (localStorage) ---------- */
  function readFavourites() {
    try {
      const ids = JSON.parse(localStorage.getItem(FAV_KEY) || "[]");
      return Array.isArray(ids) ? ids.filter((id) => byId[id]) : [];
    } catch (e) {
      return [];
    }
  }
  let favourites = readFavourites();

  function toggleFavourite(id) {
    const r = byId[id];
    if (favourites.includes(id)) {
      favourites = favourites.filter((x) => x !== id);
      // The faulty build forgets to write removals, so they come back after a reload.
      if (!defect("unfavourite-reappears")) localStorage.setItem(FAV_KEY, JSON.stringify(favourites));
      toast(`Removed ${r.title} from favourites`);
    } else {
      favourites.push(id);
      localStorage.setItem(FAV_KEY, JSON.stringify(favourites));
      toast(`Saved ${r.title} to favourites`);
    }
    renderAll();
  }

  /* ---------- artwork ---------- */
  function dish(r) {
    const [base, accent] = r.colors;
    const seed = r.id.length;
    const bits = [0, 1, 2, 3, 4].map((i) => {
      const a = (i * 72 + seed * 17) * Math.PI / 180;
      return `<circle cx="${160 + Math.cos(a) * 38}" cy="${100 + Math.sin(a) * 26}" r="${9 + (i % 3) * 3}" fill="${accent}" opacity=".85"/>`;
    }).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 200"><rect width="320" height="200" fill="#fbf1e7"/>
      <ellipse cx="160" cy="112" rx="118" ry="74" fill="#e9dccd"/><ellipse cx="160" cy="104" rx="108" ry="68" fill="#fff"/>
      <ellipse cx="160" cy="102" rx="82" ry="50" fill="${base}"/>${bits}
      <path d="M262 40 l10 120" stroke="#b9a48f" stroke-width="6" stroke-linecap="round"/></svg>`;
    return "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  }

  /* ---------- search ---------- */
  const q = $("q"), cuisineSel = $("cuisine"), maxSel = $("max-time"), sortSel = $("sort");
  [...new Set(recipes.map((r) => r.cuisine))].sort().forEach((c) => cuisineSel.add(new Option(c, c)));
  const dietBoxes = () => [...document.querySelectorAll('input[name="diet"]')];

  function matches(r) {
    const term = q.value.trim().toLowerCase();
    if (term && !(r.title.toLowerCase().includes(term) || r.ingredients.some((i) => i.toLowerCase().includes(term)))) return false;
    if (cuisineSel.value && r.cuisine !== cuisineSel.value) return false;
    if (maxSel.value) {
      const max = Number(maxSel.value);
      if (defect("max-time-excludes-limit") ? r.minutes >= max : r.minutes > max) return false;
    }
    const diets = dietBoxes().filter((b) => b.checked).map((b) => b.value);
    if (diets.length) {
      const ok = defect("dietary-filters-match-any")
        ? diets.some((d) => r.diets.includes(d))
        : diets.every((d) => r.diets.includes(d));
      if (!ok) return false;
    }
    return true;
  }

  const sorters = {
    rating: (a, b) => b.rating - a.rating || a.title.localeCompare(b.title),
    time: (a, b) => a.minutes - b.minutes || a.title.localeCompare(b.title),
    name: (a, b) => a.title.localeCompare(b.title),
  };

  function card(r) {
    const li = document.createElement("li");
    li.className = "card";
    const fav = favourites.includes(r.id);
    const count = r.ingredients.length + (defect("ingredient-count-off") ? 1 : 0);
    li.innerHTML = `
      <img src="${dish(r)}" alt="${r.title}" class="card-img" loading="lazy" width="320" height="200">
      <div class="card-body">
        <p class="card-cuisine">${r.cuisine}</p>
        <h3 class="card-title"><button type="button" class="title-btn">${r.title}</button></h3>
        <p class="card-meta"><span class="time">${r.minutes} min</span><span class="rating" aria-label="Rated ${r.rating} out of 5">★ ${r.rating.toFixed(1)}</span><span class="ingr">${count} ingredients</span></p>
        <div class="badges">${r.diets.map((d) => `<span class="badge">${DIET_LABELS[d]}</span>`).join("")}</div>
      </div>
      <button type="button" class="heart" aria-pressed="${fav}" aria-label="${fav ? "Remove" : "Save"} ${r.title} ${fav ? "from" : "to"} favourites">${fav ? "♥" : "♡"}</button>`;
    li.querySelector(".title-btn").addEventListener("click", () => openDetail(r.id));
    li.querySelector(".card-img").addEventListener("click", () => openDetail(r.id));
    li.querySelector(".heart").addEventListener("click", () => toggleFavourite(r.id));
    return li;
  }

  function renderResults() {
    const found = recipes.filter(matches).sort(sorters[sortSel.value]);
    const list = $("recipe-list");
    list.innerHTML = "";
    found.forEach((r) => list.appendChild(card(r)));
    $("result-count").textContent = found.length === 1 ? "1 recipe found" : `${found.length} recipes found`;
    $("empty").hidden = found.length > 0 || defect("no-empty-state");
  }

  function renderFavourites() {
    const list = $("fav-list");
    list.innerHTML = "";
    favourites.map((id) => byId[id]).forEach((r) => list.appendChild(card(r)));
    $("fav-empty").hidden = favourites.length > 0;
    $("fav-count").textContent = String(favourites.length);
  }

  function renderAll() {
    renderResults();
    renderFavourites();
    if (detail.open) syncDetailFav();
  }

  function clearFilters() {
    q.value = "";
    cuisineSel.value = "";
    maxSel.value = "";
    dietBoxes().forEach((b) => { b.checked = false; });
    renderResults();
    q.focus();
  }

  q.addEventListener("input", renderResults);
  [cuisineSel, maxSel, sortSel].forEach((el) => el.addEventListener("change", renderResults));
  dietBoxes().forEach((b) => b.addEventListener("change", renderResults));
  $("clear-all").addEventListener("click", clearFilters);
  $("clear-side").addEventListener("click", clearFilters);

  /* ---------- views ---------- */
  function showView(name) {
    $("search-view").hidden = name !== "search";
    $("favourites-view").hidden = name !== "favourites";
    [["view-search", "search"], ["view-favourites", "favourites"]].forEach(([btn, view]) => {
      if (view === name) $(btn).setAttribute("aria-current", "page");
      else $(btn).removeAttribute("aria-current");
    });
  }
  $("view-search").addEventListener("click", () => showView("search"));
  $("view-favourites").addEventListener("click", () => showView("favourites"));

  /* ---------- detail ---------- */
  const detail = $("detail");
  let openId = null;
  function openDetail(id) {
    const r = byId[id];
    openId = id;
    $("d-image").src = dish(r);
    $("d-image").alt = r.title;
    $("d-cuisine").textContent = r.cuisine;
    $("d-title").textContent = r.title;
    $("d-facts").innerHTML = `<li><strong>${r.minutes} min</strong> total</li><li>Serves <strong>${r.serves}</strong></li><li><strong>★ ${r.rating.toFixed(1)}</strong> / 5</li>`;
    $("d-badges").innerHTML = r.diets.map((d) => `<span class="badge">${DIET_LABELS[d]}</span>`).join("");
    $("d-ingredients-title").textContent = `Ingredients (${r.ingredients.length})`;
    $("d-ingredients").innerHTML = r.ingredients.map((i) => `<li>${i}</li>`).join("");
    $("d-steps").innerHTML = r.steps.map((s) => `<li>${s}</li>`).join("");
    syncDetailFav();
    detail.showModal();
  }
  function syncDetailFav() {
    const fav = favourites.includes(openId);
    $("d-fav").setAttribute("aria-pressed", String(fav));
    $("d-fav").textContent = fav ? "♥ Saved to favourites" : "♡ Save to favourites";
  }
  $("d-fav").addEventListener("click", () => toggleFavourite(openId));
  $("d-close").addEventListener("click", () => detail.close());
  detail.addEventListener("click", (e) => { if (e.target === detail) detail.close(); });

  /* ---------- toast ---------- */
  let toastTimer;
  function toast(text) {
    const el = $("toast");
    el.textContent = text;
    el.classList.add("show");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.classList.remove("show"); el.textContent = ""; }, 2500);
  }

  renderAll();
})();
