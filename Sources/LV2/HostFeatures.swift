import CLilv
import CPluginKernel
import Glibc

/// The LV2 features Detent gives one plug-in instance: URID map and unmap, options (sample
/// rate, block lengths, sequence size), bounded block length, log, worker scheduling and
/// default-state loading. Owns every structure the feature array points at, which must live
/// as long as the instance.
final class HostFeatures {
    /// The NULL-terminated array `lilv_plugin_instantiate` takes.
    let array: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
    private var features: [UnsafeMutablePointer<LV2_Feature>] = []
    private var cStrings: [UnsafeMutablePointer<CChar>] = []
    private let options: UnsafeMutablePointer<LV2_Options_Option>
    private let optionValues: UnsafeMutablePointer<Int32>
    private let sampleRateValue: UnsafeMutablePointer<Float>
    private let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
    private let logFeature: UnsafeMutablePointer<LV2_Log_Log>

    /// - Parameters:
    ///   - worker: the instance record the worker's schedule calls reach.
    ///   - log: where the plug-in's messages wait to be printed.
    init(sampleRate: Double, maxFrames: Int, sequenceSize: Int,
         worker: UnsafeMutablePointer<DetentLV2Instance>, log: UnsafeMutablePointer<DetentLV2Log>) {
        let urids = URIDMap.shared
        sampleRateValue = .allocate(capacity: 1)
        sampleRateValue.initialize(to: Float(sampleRate))
        // min, max, nominal block length, sequence size.
        optionValues = .allocate(capacity: 4)
        optionValues.initialize(from: [0, Int32(maxFrames), Int32(maxFrames), Int32(sequenceSize)], count: 4)
        let intType = urids.map(LV2URI.atom + "Int"), floatType = urids.map(LV2URI.atom + "Float")
        func option(_ key: String, _ type: LV2_URID, _ value: UnsafeRawPointer) -> LV2_Options_Option {
            LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: urids.map(key), size: 4,
                               type: type, value: value)
        }
        options = .allocate(capacity: 6)
        options.initialize(from: [
            option(LV2URI.parameters + "sampleRate", floatType, sampleRateValue),
            option(LV2URI.bufSize + "minBlockLength", intType, optionValues),
            option(LV2URI.bufSize + "maxBlockLength", intType, optionValues + 1),
            option(LV2URI.bufSize + "nominalBlockLength", intType, optionValues + 2),
            option(LV2URI.bufSize + "sequenceSize", intType, optionValues + 3),
            LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0, size: 0, type: 0, value: nil),
        ], count: 6)
        schedule = .allocate(capacity: 1)
        schedule.initialize(to: LV2_Worker_Schedule(handle: UnsafeMutableRawPointer(worker),
                                                    schedule_work: detent_lv2_schedule_work))
        logFeature = .allocate(capacity: 1)
        detent_lv2_log_feature(log, logFeature)

        let data: [(String, UnsafeMutableRawPointer?)] = [
            (LV2URI.uridMap, UnsafeMutableRawPointer(urids.mapFeature)),
            (LV2URI.uridUnmap, UnsafeMutableRawPointer(urids.unmapFeature)),
            (LV2URI.optionsFeature, UnsafeMutableRawPointer(options)),
            (LV2URI.boundedBlockLength, nil),
            (LV2URI.coarseBlockLength, nil),
            (LV2URI.logFeature, UnsafeMutableRawPointer(logFeature)),
            (LV2URI.workerSchedule, UnsafeMutableRawPointer(schedule)),
            (LV2URI.loadDefaultState, nil),
        ]
        array = .allocate(capacity: data.count + 1)
        for (i, (uri, pointer)) in data.enumerated() {
            let name = strdup(uri)!
            cStrings.append(name)
            let feature = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
            feature.initialize(to: LV2_Feature(URI: name, data: pointer))
            features.append(feature)
            array[i] = UnsafePointer(feature)
        }
        array[data.count] = nil
    }

    deinit {
        for f in features { f.deallocate() }
        for s in cStrings { free(s) }
        array.deallocate()
        options.deallocate()
        optionValues.deallocate()
        sampleRateValue.deallocate()
        schedule.deallocate()
        logFeature.deallocate()
    }
}
