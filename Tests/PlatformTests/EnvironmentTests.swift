import Platform
import Testing

/// The environment read one way: whole, or one variable, and the two agree. (Read only: a
/// test that set variables would race the other tests' threads reading them.)
@Suite("Environment")
struct EnvironmentTests {
    @Test("the whole environment holds each variable as value(_:) reads it")
    func wholeAndOne() {
        let all = Environment.all
        #expect(!all.isEmpty)
        for name in ["PATH", "HOME", "DETENT_NOT_SET_ANYWHERE"] {
            #expect(all[name] == Environment.value(name), "\(name)")
        }
        #expect(all.keys.allSatisfy { !$0.contains("=") && !$0.isEmpty })
    }
}
