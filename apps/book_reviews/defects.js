window.WT_DEFECTS = ["delete-reappears", "rating-not-required", "report-no-feedback"];
