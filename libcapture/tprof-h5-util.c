/* tprof-h5-util.c — placeholder until implemented */
