/* tprof-h5-read.c — placeholder until implemented */
