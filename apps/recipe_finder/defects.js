window.WT_DEFECTS = ["dietary-filters-match-any", "max-time-excludes-limit", "no-empty-state"];
