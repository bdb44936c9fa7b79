/* tprof-select.c — placeholder until implemented */
