#ifndef DETENT_CAVAHI_H
#define DETENT_CAVAHI_H

#include <stdint.h>

/// One service to announce over mDNS: its type (`_oscjson._tcp`), port, and where:
/// `interface` an index or -1 for every interface, `protocol` 0 IPv4, 1 IPv6, -1 both.
typedef struct {
    const char *type;
    uint16_t port;
    int32_t interface;
    int32_t protocol;
} DetentService;

/// Where an announcer's lines go (problems, and a name changed for a collision).
typedef void (*DetentAnnounceLog)(void *context, const char *line);

typedef struct DetentAnnouncer DetentAnnouncer;

/// Announces `services` under `name` through Avahi's daemon, on a thread of Avahi's own, for
/// as long as the announcer lives. A daemon that is not running, or goes away, is waited for
/// (the services are announced when it comes); a name taken on the network is changed as
/// Avahi proposes ("NAME #2"). Returns NULL, with the reason in `why`, when libavahi-client
/// cannot be loaded or its thread cannot start.
DetentAnnouncer *detent_announce_start(const char *name, const DetentService *services, int count,
                                       DetentAnnounceLog log, void *context, char *why, int why_size);

/// Withdraws the services and frees the announcer; `log` is not called after this returns.
void detent_announce_stop(DetentAnnouncer *announcer);

#endif
