/* tprof-profiled-time.c — placeholder until implemented */
