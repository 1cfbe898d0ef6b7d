window.WT_DEFECTS = ["contact-email-unvalidated", "lightbox-ignores-filter", "project-count-stale"];
