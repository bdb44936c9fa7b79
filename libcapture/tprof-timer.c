/* tprof-timer.c — placeholder until implemented */
