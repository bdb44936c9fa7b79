/* tprof-names.c — placeholder until implemented */
