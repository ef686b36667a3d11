// The liblilv-0.so.0 functions Detent calls, defined here as calls into the library opened on first
// use (see DetentLibrary.h, which also says how to add one).
#include "CLilv.h"
#include "DetentLibrary.h"

#define LILV_CALLS(F, V) \
    F(char *, lilv_file_uri_parse, (const char *uri, char **hostname), (uri, hostname)) \
    V(lilv_free, (void *ptr), (ptr)) \
    V(lilv_instance_free, (LilvInstance *instance), (instance)) \
    F(LilvNode *, lilv_new_uri, (LilvWorld *world, const char *uri), (world, uri)) \
    F(float, lilv_node_as_float, (const LilvNode *value), (value)) \
    F(int, lilv_node_as_int, (const LilvNode *value), (value)) \
    F(const char *, lilv_node_as_string, (const LilvNode *value), (value)) \
    F(const char *, lilv_node_as_uri, (const LilvNode *value), (value)) \
    V(lilv_node_free, (LilvNode *val), (val)) \
    F(_Bool, lilv_node_is_float, (const LilvNode *value), (value)) \
    F(_Bool, lilv_node_is_int, (const LilvNode *value), (value)) \
    F(_Bool, lilv_node_is_uri, (const LilvNode *value), (value)) \
    F(LilvIter *, lilv_nodes_begin, (const LilvNodes *collection), (collection)) \
    V(lilv_nodes_free, (LilvNodes *collection), (collection)) \
    F(const LilvNode *, lilv_nodes_get, (const LilvNodes *collection, LilvIter *i), (collection, i)) \
    F(_Bool, lilv_nodes_is_end, (const LilvNodes *collection, LilvIter *i), (collection, i)) \
    F(LilvIter *, lilv_nodes_next, (const LilvNodes *collection, LilvIter *i), (collection, i)) \
    F(unsigned int, lilv_nodes_size, (const LilvNodes *collection), (collection)) \
    F(const LilvNode *, lilv_plugin_class_get_label, (const LilvPluginClass *plugin_class), (plugin_class)) \
    F(const LilvPluginClass *, lilv_plugin_get_class, (const LilvPlugin *plugin), (plugin)) \
    F(const LilvNodes *, lilv_plugin_get_data_uris, (const LilvPlugin *plugin), (plugin)) \
    F(LilvNodes *, lilv_plugin_get_extension_data, (const LilvPlugin *plugin), (plugin)) \
    F(const LilvNode *, lilv_plugin_get_library_uri, (const LilvPlugin *plugin), (plugin)) \
    F(LilvNode *, lilv_plugin_get_name, (const LilvPlugin *plugin), (plugin)) \
    F(LilvNode *, lilv_plugin_get_author_name, (const LilvPlugin *plugin), (plugin)) \
    F(uint32_t, lilv_plugin_get_num_ports, (const LilvPlugin *plugin), (plugin)) \
    F(const LilvPort *, lilv_plugin_get_port_by_index, (const LilvPlugin *plugin, uint32_t index), (plugin, index)) \
    F(LilvNodes *, lilv_plugin_get_related, (const LilvPlugin *plugin, const LilvNode *type), (plugin, type)) \
    F(LilvNodes *, lilv_plugin_get_required_features, (const LilvPlugin *plugin), (plugin)) \
    F(LilvNodes *, lilv_plugin_get_optional_features, (const LilvPlugin *plugin), (plugin)) \
    F(const LilvNode *, lilv_plugin_get_uri, (const LilvPlugin *plugin), (plugin)) \
    F(LilvNodes *, lilv_plugin_get_value, (const LilvPlugin *plugin, const LilvNode *predicate), (plugin, predicate)) \
    F(_Bool, lilv_plugin_has_feature, (const LilvPlugin *plugin, const LilvNode *feature), (plugin, feature)) \
    F(LilvInstance *, lilv_plugin_instantiate, (const LilvPlugin *plugin, double sample_rate, const LV2_Feature *const *features), (plugin, sample_rate, features)) \
    F(LilvIter *, lilv_plugins_begin, (const LilvPlugins *collection), (collection)) \
    F(const LilvPlugin *, lilv_plugins_get, (const LilvPlugins *collection, LilvIter *i), (collection, i)) \
    F(const LilvPlugin *, lilv_plugins_get_by_uri, (const LilvPlugins *plugins, const LilvNode *uri), (plugins, uri)) \
    F(_Bool, lilv_plugins_is_end, (const LilvPlugins *collection, LilvIter *i), (collection, i)) \
    F(LilvIter *, lilv_plugins_next, (const LilvPlugins *collection, LilvIter *i), (collection, i)) \
    F(LilvNode *, lilv_port_get_name, (const LilvPlugin *plugin, const LilvPort *port), (plugin, port)) \
    V(lilv_port_get_range, (const LilvPlugin *plugin, const LilvPort *port, LilvNode **def, LilvNode **min, LilvNode **max), (plugin, port, def, min, max)) \
    F(LilvScalePoints *, lilv_port_get_scale_points, (const LilvPlugin *plugin, const LilvPort *port), (plugin, port)) \
    F(const LilvNode *, lilv_port_get_symbol, (const LilvPlugin *plugin, const LilvPort *port), (plugin, port)) \
    F(LilvNodes *, lilv_port_get_value, (const LilvPlugin *plugin, const LilvPort *port, const LilvNode *predicate), (plugin, port, predicate)) \
    F(_Bool, lilv_port_has_property, (const LilvPlugin *plugin, const LilvPort *port, const LilvNode *property), (plugin, port, property)) \
    F(_Bool, lilv_port_is_a, (const LilvPlugin *plugin, const LilvPort *port, const LilvNode *port_class), (plugin, port, port_class)) \
    F(_Bool, lilv_port_supports_event, (const LilvPlugin *plugin, const LilvPort *port, const LilvNode *event_type), (plugin, port, event_type)) \
    F(const LilvNode *, lilv_scale_point_get_label, (const LilvScalePoint *point), (point)) \
    F(const LilvNode *, lilv_scale_point_get_value, (const LilvScalePoint *point), (point)) \
    F(LilvIter *, lilv_scale_points_begin, (const LilvScalePoints *collection), (collection)) \
    V(lilv_scale_points_free, (LilvScalePoints *collection), (collection)) \
    F(const LilvScalePoint *, lilv_scale_points_get, (const LilvScalePoints *collection, LilvIter *i), (collection, i)) \
    F(_Bool, lilv_scale_points_is_end, (const LilvScalePoints *collection, LilvIter *i), (collection, i)) \
    F(LilvIter *, lilv_scale_points_next, (const LilvScalePoints *collection, LilvIter *i), (collection, i)) \
    V(lilv_state_emit_port_values, (const LilvState *state, LilvSetPortValueFunc set_value, void *user_data), (state, set_value, user_data)) \
    V(lilv_state_free, (LilvState *state), (state)) \
    F(const char *, lilv_state_get_label, (const LilvState *state), (state)) \
    F(LilvState *, lilv_state_new_from_world, (LilvWorld *world, LV2_URID_Map *map, const LilvNode *node), (world, map, node)) \
    F(LilvState *, lilv_state_new_from_file, (LilvWorld *world, LV2_URID_Map *map, const LilvNode *subject, const char *path), (world, map, subject, path)) \
    F(LilvState *, lilv_state_new_from_instance, (const LilvPlugin *plugin, LilvInstance *instance, LV2_URID_Map *map, const char *scratch_dir, const char *copy_dir, const char *link_dir, const char *save_dir, LilvGetPortValueFunc get_value, void *user_data, uint32_t flags, const LV2_Feature *const *features), (plugin, instance, map, scratch_dir, copy_dir, link_dir, save_dir, get_value, user_data, flags, features)) \
    F(int, lilv_state_save, (LilvWorld *world, LV2_URID_Map *map, LV2_URID_Unmap *unmap, const LilvState *state, const char *uri, const char *dir, const char *filename), (world, map, unmap, state, uri, dir, filename)) \
    V(lilv_state_restore, (const LilvState *state, LilvInstance *instance, LilvSetPortValueFunc set_value, void *user_data, uint32_t flags, const LV2_Feature *const *features), (state, instance, set_value, user_data, flags, features)) \
    F(_Bool, lilv_world_ask, (LilvWorld *world, const LilvNode *subject, const LilvNode *predicate, const LilvNode *object), (world, subject, predicate, object)) \
    F(LilvNode *, lilv_world_get, (LilvWorld *world, const LilvNode *subject, const LilvNode *predicate, const LilvNode *object), (world, subject, predicate, object)) \
    F(const LilvPlugins *, lilv_world_get_all_plugins, (const LilvWorld *world), (world)) \
    V(lilv_world_load_all, (LilvWorld *world), (world)) \
    V(lilv_world_load_bundle, (LilvWorld *world, const LilvNode *bundle_uri), (world, bundle_uri)) \
    V(lilv_world_load_specifications, (LilvWorld *world), (world)) \
    V(lilv_world_load_plugin_classes, (LilvWorld *world), (world)) \
    F(LilvNode *, lilv_new_file_uri, (LilvWorld *world, const char *host, const char *path), (world, host, path)) \
    F(int, lilv_world_load_resource, (LilvWorld *world, const LilvNode *resource), (world, resource)) \
    F(LilvWorld *, lilv_world_new, (void), ())

DETENT_OPENED_ON_FIRST_USE(LILV_CALLS, "liblilv-0.so.0", "hosting LV2 plug-ins", detent_lilv_load)
