/* tprof-time-manager.c — placeholder until implemented */
