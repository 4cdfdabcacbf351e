/* version.h - the one place that says which wtcc this is (wtcc --version). */
#ifndef WTC_VERSION_H
#define WTC_VERSION_H

#define WTC_VERSION "0.1.0"

#endif
