/* Seed data for a fresh board. */
window.FLOWBOARD_SEED = {
  columns: [
    { id: "todo", name: "To do" },
    { id: "progress", name: "In progress" },
    { id: "review", name: "Review" },
    { id: "done", name: "Done" },
  ],
  people: [
    { name: "Priya Patel", initials: "PP", color: "#e11d48" },
    { name: "Marcus Lee", initials: "ML", color: "#0891b2" },
    { name: "Sofia Alvarez", initials: "SA", color: "#ca8a04" },
    { name: "Tom Becker", initials: "TB", color: "#16a34a" },
  ],
  wipLimit: 3,
  nextKey: 126,
  cards: [
    { key: "FB-118", title: "Audit color contrast on checkout pages", description: "Run axe on cart, shipping and payment steps; log every failure.", assignee: "Sofia Alvarez", priority: "Medium", due: "2026-03-20", column: "todo" },
    { key: "FB-121", title: "Add rate limiting to password reset endpoint", description: "Max 5 requests per email per hour.", assignee: "Marcus Lee", priority: "High", due: "2026-03-18", column: "todo" },
    { key: "FB-124", title: "Write release notes for v2.4", description: "", assignee: "Tom Becker", priority: "Low", due: "2026-03-27", column: "todo" },
    { key: "FB-125", title: "Replace hero images with compressed WebP", description: "Target under 150 KB per image.", assignee: "Priya Patel", priority: "Medium", due: "2026-03-24", column: "todo" },
    { key: "FB-109", title: "Migrate newsletter signup to new form API", description: "", assignee: "Priya Patel", priority: "High", due: "2026-03-16", column: "progress" },
    { key: "FB-114", title: "Fix cart badge not updating on mobile Safari", description: "Reproducible on iOS 17 after adding a second item.", assignee: "Marcus Lee", priority: "Urgent", due: "2026-03-13", column: "progress" },
    { key: "FB-104", title: "Update cookie consent banner copy", description: "Legal approved the new wording on Mar 2.", assignee: "Sofia Alvarez", priority: "Low", due: "2026-03-12", column: "review" },
    { key: "FB-107", title: "Lazy-load the product reviews widget", description: "", assignee: "Tom Becker", priority: "Medium", due: "2026-03-14", column: "review" },
    { key: "FB-098", title: "Set up staging environment", description: "", assignee: "Marcus Lee", priority: "High", due: "2026-03-06", column: "done" },
    { key: "FB-101", title: "Design 404 page illustration", description: "", assignee: "Priya Patel", priority: "Low", due: "2026-03-09", column: "done" },
  ],
};
