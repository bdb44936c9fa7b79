/* tprof-histogram.c — placeholder until implemented */
