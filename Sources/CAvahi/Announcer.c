// Announcing services through Avahi's daemon: the client's and the entry group's states, as
// Avahi's client API has them handled (a daemon waited for, a name collision renamed, a lost
// daemon waited for again). Every callback runs on the threaded poll's thread.
#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/thread-watch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "AvahiCalls.h"
#include "CAvahi.h"

struct DetentAnnouncer {
    AvahiThreadedPoll *poll;
    AvahiClient *client;
    AvahiEntryGroup *group;
    char *name;  // Avahi's allocation once renamed, else ours (`renamed` says which)
    int renamed;
    DetentService *services;
    int count;
    DetentAnnounceLog log;
    void *context;
    int toldWaiting;
};

__attribute__((format(printf, 2, 3)))
static void say(DetentAnnouncer *a, const char *format, ...) {
    char line[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    a->log(a->context, line);
}

static void client_changed(AvahiClient *client, AvahiClientState state, void *userdata);

/// Takes Avahi's next name for a collision ("NAME #2") and says so.
static void rename_after_collision(DetentAnnouncer *a) {
    char *next = avahi_alternative_service_name(a->name);
    if (!next) return;
    say(a, "mDNS: the name '%s' is taken on the network; announced as '%s'", a->name, next);
    if (a->renamed) avahi_free(a->name); else free(a->name);
    a->name = next;
    a->renamed = 1;
}

static void publish(DetentAnnouncer *a, AvahiClient *client);

static void group_changed(AvahiEntryGroup *group, AvahiEntryGroupState state, void *userdata) {
    DetentAnnouncer *a = userdata;
    a->group = group;  // the first call comes from within avahi_entry_group_new
    if (state == AVAHI_ENTRY_GROUP_COLLISION) {
        rename_after_collision(a);
        avahi_entry_group_reset(group);
        publish(a, a->client);
    } else if (state == AVAHI_ENTRY_GROUP_FAILURE) {
        say(a, "mDNS: Avahi withdrew the announcement: %s", avahi_strerror(avahi_client_errno(a->client)));
    }
}

static void publish(DetentAnnouncer *a, AvahiClient *client) {
    if (!a->group && !(a->group = avahi_entry_group_new(client, group_changed, a))) {
        say(a, "mDNS: cannot announce the panel: %s", avahi_strerror(avahi_client_errno(client)));
        return;
    }
    if (!avahi_entry_group_is_empty(a->group)) return;
    for (int attempt = 0; attempt < 16; attempt++) {
        int error = 0;
        for (int i = 0; i < a->count && error == 0; i++) {
            const DetentService *s = &a->services[i];
            error = avahi_entry_group_add_service_strlst(a->group, s->interface, s->protocol, 0, a->name, s->type, NULL,
                                                         NULL, s->port, NULL);
        }
        if (error == AVAHI_ERR_COLLISION) {  // a service of this host has the name already
            avahi_entry_group_reset(a->group);
            rename_after_collision(a);
            continue;
        }
        if (error == 0) error = avahi_entry_group_commit(a->group);
        if (error < 0) say(a, "mDNS: cannot announce the panel: %s", avahi_strerror(error));
        return;
    }
}

static void client_changed(AvahiClient *client, AvahiClientState state, void *userdata) {
    DetentAnnouncer *a = userdata;
    a->client = client;  // the first call comes from within avahi_client_new
    switch (state) {
    case AVAHI_CLIENT_S_RUNNING:
        publish(a, client);
        break;
    case AVAHI_CLIENT_S_COLLISION:
    case AVAHI_CLIENT_S_REGISTERING:
        // The host's own name is being (re)established: announce again once it is.
        if (a->group) avahi_entry_group_reset(a->group);
        break;
    case AVAHI_CLIENT_CONNECTING:
        if (!a->toldWaiting) {
            a->toldWaiting = 1;
            say(a, "mDNS: no avahi-daemon is running; the panel is announced when one starts");
        }
        break;
    case AVAHI_CLIENT_FAILURE:
        if (avahi_client_errno(client) == AVAHI_ERR_DISCONNECTED) {
            // The daemon went away: its groups went with the client. Wait for the next one.
            a->group = NULL;
            avahi_client_free(client);
            int error = 0;
            a->client = avahi_client_new(avahi_threaded_poll_get(a->poll), AVAHI_CLIENT_NO_FAIL, client_changed, a, &error);
            if (!a->client) say(a, "mDNS: cannot reach Avahi again: %s", avahi_strerror(error));
        } else {
            say(a, "mDNS: the panel is not announced: %s", avahi_strerror(avahi_client_errno(client)));
        }
        break;
    }
}

static void free_services(DetentAnnouncer *a) {
    for (int i = 0; i < a->count; i++) free((char *)a->services[i].type);
    free(a->services);
}

DetentAnnouncer *detent_announce_start(const char *name, const DetentService *services, int count,
                                       DetentAnnounceLog log, void *context, char *why, int why_size) {
    if (count <= 0) {
        snprintf(why, (size_t)why_size, "no service to announce");
        return NULL;
    }
    const char *problem = detent_avahi_load();
    if (problem) {
        snprintf(why, (size_t)why_size, "%s", problem);
        return NULL;
    }
    DetentAnnouncer *a = calloc(1, sizeof *a);
    if (!a || !(a->name = strdup(name)) || !(a->services = calloc((size_t)count, sizeof *services))) {
        snprintf(why, (size_t)why_size, "out of memory");
        if (a) free(a->name);
        free(a);
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        a->services[i] = services[i];
        a->services[i].type = strdup(services[i].type);
        a->count = i + 1;
        if (!a->services[i].type) break;
    }
    a->log = log;
    a->context = context;
    int error = 0;
    if (!(a->poll = avahi_threaded_poll_new())) {
        snprintf(why, (size_t)why_size, "cannot make Avahi's poll");
    } else if (a->count < count || !a->services[count - 1].type) {
        snprintf(why, (size_t)why_size, "out of memory");
    } else if (!avahi_client_new(avahi_threaded_poll_get(a->poll), AVAHI_CLIENT_NO_FAIL, client_changed, a, &error)) {
        snprintf(why, (size_t)why_size, "%s", avahi_strerror(error));
    } else if (avahi_threaded_poll_start(a->poll) < 0) {
        snprintf(why, (size_t)why_size, "cannot start Avahi's thread");
    } else {
        return a;
    }
    if (a->client) avahi_client_free(a->client);
    if (a->poll) avahi_threaded_poll_free(a->poll);
    free_services(a);
    free(a->name);
    free(a);
    return NULL;
}

void detent_announce_stop(DetentAnnouncer *a) {
    if (!a) return;
    avahi_threaded_poll_stop(a->poll);
    if (a->client) avahi_client_free(a->client);  // frees its group: the services are withdrawn
    avahi_threaded_poll_free(a->poll);
    if (a->renamed) avahi_free(a->name); else free(a->name);
    free_services(a);
    free(a);
}
