/// Sets of the numbers `0..<count`, joined two at a time (union-find, with paths halved as
/// they are followed): how sets of things that touch (a grid's rules, a blot's runs of ink)
/// are gathered.
package struct DisjointSets {
    private var parent: [Int]

    /// `count` sets, each holding its own number.
    package init(count: Int = 0) {
        parent = Array(0..<count)
    }

    /// How many numbers the sets hold.
    package var count: Int { parent.count }

    /// Adds a set holding the next number alone; returns that number.
    package mutating func add() -> Int {
        parent.append(parent.count)
        return parent.count - 1
    }

    /// The number that stands for the set holding `element`.
    package mutating func root(_ element: Int) -> Int {
        var element = element
        while parent[element] != element {
            parent[element] = parent[parent[element]]
            element = parent[element]
        }
        return element
    }

    /// Makes the sets of `a` and `b` one.
    package mutating func join(_ a: Int, _ b: Int) {
        let (x, y) = (root(a), root(b))
        if x != y { parent[x] = y }
    }
}
