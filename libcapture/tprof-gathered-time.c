/* tprof-gathered-time.c — placeholder until implemented */
