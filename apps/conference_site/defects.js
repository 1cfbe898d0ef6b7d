window.WT_DEFECTS = ["soldout-tier-registrable", "tier-choice-not-preselected", "track-filter-lost-on-day-switch"];
