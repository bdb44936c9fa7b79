/* tprof-h5-write.c — placeholder until implemented */
