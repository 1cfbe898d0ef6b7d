window.WT_DEFECTS = ["duplicate-application", "placeholder-job-description", "remote-toggle-includes-hybrid"];
